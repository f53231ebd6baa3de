import type { PermissionOption, RequestPermissionRequest } from "@agentclientprotocol/sdk";
import type { RuntimeEvent } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import { PermissionRequests, responseFor } from "./permissions.ts";

const options: PermissionOption[] = [
  { optionId: "always", name: "Always", kind: "allow_always" },
  { optionId: "once", name: "Allow", kind: "allow_once" },
  { optionId: "no", name: "Reject", kind: "reject_once" },
];

const request: RequestPermissionRequest = {
  sessionId: "s1",
  options,
  toolCall: {
    toolCallId: "call-1",
    title: "rm -rf build",
    kind: "execute",
    rawInput: { command: "rm -rf build" },
  },
};

describe("ACP permission requests", () => {
  it("picks the agent's option for each of Skein's decisions, else answers cancelled", () => {
    expect(responseFor(options, "accept")).toEqual({
      outcome: { outcome: "selected", optionId: "once" },
    });
    expect(responseFor(options, "accept_for_session")).toEqual({
      outcome: { outcome: "selected", optionId: "always" },
    });
    expect(responseFor(options, "decline")).toEqual({
      outcome: { outcome: "selected", optionId: "no" },
    });
    expect(responseFor(options, "cancel")).toEqual({ outcome: { outcome: "cancelled" } });
    const allowOnly = options.filter((o) => o.kind === "allow_once");
    expect(responseFor(allowOnly, "decline")).toEqual({ outcome: { outcome: "cancelled" } });
  });

  it("opens a command request, answers it once, and refuses a second answer", async () => {
    const requests = new PermissionRequests();
    const events: RuntimeEvent[] = [];
    let declined = 0;
    const answered = requests.open(
      request,
      (e) => events.push(e),
      () => declined++,
    );
    const opened = events[0];
    if (opened?.type !== "request.opened") throw new Error("no request opened");
    expect(opened).toMatchObject({ kind: "command", command: "rm -rf build", itemRef: "call-1" });
    requests.answer(opened.requestRef, { decision: "decline" });
    await expect(answered).resolves.toEqual({ outcome: { outcome: "selected", optionId: "no" } });
    expect(declined).toBe(1);
    expect(events.at(-1)).toEqual({
      type: "request.closed",
      requestRef: opened.requestRef,
      reason: "answered",
    });
    expect(() => requests.answer(opened.requestRef, { decision: "accept" })).toThrow(
      /no longer open/,
    );
  });

  it("answers every open request cancelled when the turn ends", async () => {
    const requests = new PermissionRequests();
    const events: RuntimeEvent[] = [];
    const first = requests.open(
      request,
      (e) => events.push(e),
      () => {},
    );
    const second = requests.open(
      request,
      (e) => events.push(e),
      () => {},
    );
    requests.cancelAll();
    await expect(first).resolves.toEqual({ outcome: { outcome: "cancelled" } });
    await expect(second).resolves.toEqual({ outcome: { outcome: "cancelled" } });
    expect(events.filter((e) => e.type === "request.closed")).toHaveLength(2);
  });
});
