import { describe, expect, it } from "vitest";
import { approvalAnswer, approvalOpened } from "./permissions.ts";

describe("A4: the scripted agent's approval requests", () => {
  it("an approval request is a command request on the command's item", () => {
    expect(
      approvalOpened("7", { threadId: "thr_1", itemId: "toolu_1", command: "touch x" }, "/w"),
    ).toEqual({
      type: "request.opened",
      requestRef: "7",
      kind: "command",
      itemRef: "toolu_1",
      summary: "Run touch x",
      command: "touch x",
      cwd: "/w",
    });
  });

  it("only an acceptance runs the command", () => {
    expect(approvalAnswer({ decision: "accept" })).toEqual({ approved: true });
    expect(approvalAnswer({ decision: "accept_for_session" })).toEqual({ approved: true });
    expect(approvalAnswer({ decision: "decline" })).toEqual({ approved: false });
    expect(approvalAnswer({ decision: "cancel" })).toEqual({ approved: false });
  });
});
