import { describe, expect, test } from "vitest";
import { ServerRequestTracker } from "../rpc/server-requests.ts";
import { answerRequest, requestKind, requestOpenedEvent } from "./request-mapping.ts";

function tracked() {
  const sent: unknown[] = [];
  const tracker = new ServerRequestTracker((_id, body) => sent.push(body));
  return { sent, tracker };
}

describe("request mapping", () => {
  test("command approvals open as `command` requests and answer with Codex decisions", () => {
    const { sent, tracker } = tracked();
    const params = {
      kind: "command",
      threadId: "th",
      turnId: "tu",
      itemId: "call_1",
      startedAtMs: 0,
      environmentId: "local",
      command: "rm -rf build",
      cwd: "/w",
    };
    const request = tracker.create("item/commandExecution/requestApproval", 0, params, "raw_9");
    expect(requestKind(request)).toBe("command");
    expect(requestOpenedEvent(request, "req-1", "command")).toEqual({
      type: "request.opened",
      requestRef: "req-1",
      kind: "command",
      itemRef: "call_1",
      summary: "Run rm -rf build",
      command: "rm -rf build",
      cwd: "/w",
      rawEventId: "raw_9",
    });
    expect(answerRequest(request, { decision: "accept_for_session" })).toBe(true);
    expect(answerRequest(request, { decision: "decline" })).toBe(false);
    expect(sent).toEqual([{ result: { decision: "acceptForSession" } }]);
  });

  test("user-input questions answer with per-question answer lists", () => {
    const { sent, tracker } = tracked();
    const params = {
      threadId: "th",
      turnId: "tu",
      itemId: "i",
      isBlocking: true,
      autoResolutionMs: null,
      questions: [
        {
          id: "q1",
          header: "H",
          question: "Which?",
          isOther: false,
          isSecret: false,
          options: null,
        },
      ],
    };
    const request = tracker.create("item/tool/requestUserInput", 1, params, null);
    expect(requestKind(request)).toBe("user_input");
    expect(requestOpenedEvent(request, "r", "user_input")).toMatchObject({
      summary: "Which?",
      questions: [{ id: "q1", header: "H", question: "Which?" }],
    });
    answerRequest(request, { decision: "accept", answers: { q1: "the first" } });
    expect(sent).toEqual([{ result: { answers: { q1: { answers: ["the first"] } } } }]);
  });

  test("B16: a file-change approval carries the changes of the item it names", () => {
    const { tracker } = tracked();
    const params = { threadId: "th", turnId: "tu", itemId: "call_p", startedAtMs: 0 };
    const request = tracker.create("item/fileChange/requestApproval", 3, params, null);
    const known = new Map([
      [
        "call_p",
        [{ path: "/w/notes.txt", kind: "add" as const, diff: "+alpha\n+beta", additions: 2 }],
      ],
    ]);
    expect(requestOpenedEvent(request, "r", "file-change", (ref) => known.get(ref))).toEqual({
      type: "request.opened",
      requestRef: "r",
      kind: "file-change",
      itemRef: "call_p",
      summary: "Apply file changes",
      changes: [{ path: "/w/notes.txt", kind: "add", diff: "+alpha\n+beta", additions: 2 }],
    });
    // An item never seen starting leaves the approval without changes rather than guessing.
    expect(requestOpenedEvent(request, "r", "file-change")).not.toHaveProperty("changes");
  });

  test("app-owned tool calls are not user requests", () => {
    const { tracker } = tracked();
    expect(requestKind(tracker.create("item/tool/call", 2, {}, null))).toBeNull();
  });
});
