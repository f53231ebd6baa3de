import type { RuntimeEvent } from "@skein/domain/provider";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { NotificationEnvelope } from "../rpc/app-server-client.ts";
import { TurnEventMapper } from "./turn-event-mapper.ts";

// Minimal notifications in the generated shapes; fields the mapper ignores are filled plainly.
const agentItem = (id: string, text: string) => ({
  type: "agentMessage" as const,
  id,
  text,
  moderation: null,
  phase: null,
  memoryCitation: null,
  delivery: null,
  questions: null,
});
const turn = (id: string, status: "inProgress" | "completed" | "interrupted" | "failed") => ({
  id,
  rootTurnId: id,
  items: [],
  itemsView: "notLoaded" as const,
  status,
  error:
    status === "failed"
      ? { message: "boom", codexErrorInfo: null, additionalDetails: null, misalignment: null }
      : null,
  startedAt: null,
  completedAt: null,
  durationMs: null,
});
const n = (value: object, rawEventId = "raw_x") =>
  ({ ...value, rawEventId }) as NotificationEnvelope;
const ids = { threadId: "th", turnId: "tu" };

describe("TurnEventMapper", () => {
  let events: RuntimeEvent[];
  beforeEach(() => {
    vi.useFakeTimers();
    events = [];
  });
  afterEach(() => vi.useRealTimers());

  test("E5/E18: notices wait for the turn's start, then become notice items with weak counted refs", () => {
    const mapper = new TurnEventMapper((e) => events.push(e), 50);
    mapper.notice({ summary: "a flag is deprecated", rawEventId: "raw_dep" });
    expect(events).toEqual([]);
    mapper.handle(
      n({ method: "turn/started", params: { threadId: "th", turn: turn("tu", "inProgress") } }),
    );
    mapper.handle(
      n({ method: "warning", params: { threadId: "th", message: "careful" } }, "raw_w"),
    );
    const notices = events.filter((e) => e.type !== "turn.started");
    expect(notices).toEqual([
      expect.objectContaining({ type: "item.started", itemRef: "notice:1", refStrength: "weak" }),
      expect.objectContaining({ type: "item.completed", itemRef: "notice:1", status: "completed" }),
      expect.objectContaining({ type: "item.started", itemRef: "notice:2", rawEventId: "raw_w" }),
      expect.objectContaining({ type: "item.completed", itemRef: "notice:2" }),
    ]);
    expect(notices[0]).toMatchObject({
      kind: "notice",
      fields: { summary: "a flag is deprecated" },
      rawEventId: "raw_dep",
    });
  });

  test("coalesces deltas of one item within the window and flushes before other events", () => {
    const mapper = new TurnEventMapper((e) => events.push(e), 50);
    mapper.handle(
      n({ method: "turn/started", params: { threadId: "th", turn: turn("tu", "inProgress") } }),
    );
    mapper.handle(
      n({ method: "item/started", params: { ...ids, item: agentItem("m1", ""), startedAtMs: 0 } }),
    );
    for (const delta of ["a", "b", "c"]) {
      mapper.handle(
        n(
          { method: "item/agentMessage/delta", params: { ...ids, itemId: "m1", delta } },
          `raw_${delta}`,
        ),
      );
    }
    expect(events.map((e) => e.type)).toEqual(["turn.started", "item.started"]);
    vi.advanceTimersByTime(50);
    expect(events.at(-1)).toEqual({
      type: "item.delta",
      itemRef: "m1",
      field: "text",
      delta: "abc",
      rawEventId: "raw_a",
    });

    mapper.handle(
      n({ method: "item/agentMessage/delta", params: { ...ids, itemId: "m1", delta: "d" } }),
    );
    mapper.handle(
      n({
        method: "item/completed",
        params: { ...ids, item: agentItem("m1", "abcd"), completedAtMs: 0 },
      }),
    );
    expect(events.slice(-2).map((e) => e.type)).toEqual(["item.delta", "item.completed"]);
  });

  test("an interrupted turn closes its open items before turn.completed", () => {
    const mapper = new TurnEventMapper((e) => events.push(e), 0);
    mapper.handle(
      n({ method: "turn/started", params: { threadId: "th", turn: turn("tu", "inProgress") } }),
    );
    mapper.handle(
      n({ method: "item/started", params: { ...ids, item: agentItem("m1", ""), startedAtMs: 0 } }),
    );
    mapper.handle(
      n({ method: "turn/completed", params: { threadId: "th", turn: turn("tu", "interrupted") } }),
    );
    expect(events.slice(-2)).toEqual([
      {
        type: "item.completed",
        itemRef: "m1",
        kind: "assistant_message",
        status: "interrupted",
        fields: {},
      },
      { type: "turn.completed", nativeTurnRef: "tu", status: "interrupted", rawEventId: "raw_x" },
    ]);
    expect(mapper.done).toBe(true);
    mapper.handle(
      n({ method: "turn/completed", params: { threadId: "th", turn: turn("tu", "completed") } }),
    );
    expect(events.filter((e) => e.type === "turn.completed")).toHaveLength(1);
  });

  test("B16: a started fileChange item's changes are known until it completes (for its approval)", () => {
    const mapper = new TurnEventMapper((e) => events.push(e), 0);
    const patchItem = (status: "inProgress" | "completed") => ({
      type: "fileChange" as const,
      id: "call_p",
      status,
      changes: [{ path: "/w/a.txt", kind: { type: "add" as const }, diff: "x\n" }],
    });
    mapper.handle(
      n({
        method: "item/started",
        params: { ...ids, item: patchItem("inProgress"), startedAtMs: 0 },
      }),
    );
    expect(mapper.changesOf("call_p")).toEqual([
      { path: "/w/a.txt", kind: "add", diff: "+x", additions: 1, deletions: 0 },
    ]);
    expect(mapper.changesOf("other")).toBeUndefined();
    mapper.handle(
      n({
        method: "item/completed",
        params: { ...ids, item: patchItem("completed"), completedAtMs: 0 },
      }),
    );
    expect(mapper.changesOf("call_p")).toBeUndefined();
  });

  test("failures carry the error text; finish() ends a turn Codex never reported", () => {
    const failed = new TurnEventMapper((e) => events.push(e), 0);
    failed.handle(
      n({ method: "turn/completed", params: { threadId: "th", turn: turn("tu", "failed") } }),
    );
    expect(events.at(-1)).toMatchObject({
      type: "turn.completed",
      status: "failed",
      error: "boom",
    });

    const crashed = new TurnEventMapper((e) => events.push(e), 0);
    const message = "codex app-server was killed by SIGKILL";
    crashed.finish("failed", { kind: "runtime_crashed", message });
    expect(events.at(-1)).toEqual({
      type: "turn.completed",
      nativeTurnRef: null,
      status: "failed",
      error: message,
      failure: { kind: "runtime_crashed", message },
    });
  });

  test("B2: a failed turn's cause is read from Codex's error code, then its HTTP status, then its words", () => {
    const failedWith = (error: Record<string, unknown>) => {
      const mapper = new TurnEventMapper((e) => events.push(e), 0);
      const failed = { ...turn("tu", "failed"), error: { additionalDetails: null, ...error } };
      mapper.handle(n({ method: "turn/completed", params: { threadId: "th", turn: failed } }));
      const last = events.at(-1);
      return last?.type === "turn.completed" ? last.failure : undefined;
    };
    expect(failedWith({ message: "too long", codexErrorInfo: "contextWindowExceeded" })).toEqual({
      kind: "context_too_long",
      message: "too long",
    });
    expect(failedWith({ message: "nope", codexErrorInfo: "unauthorized" })?.kind).toBe("auth");
    expect(
      failedWith({
        message: "exceeded retry limit, last status: 429 Too Many Requests",
        codexErrorInfo: { responseTooManyFailedAttempts: { httpStatusCode: 429 } },
      })?.kind,
    ).toBe("rate_limited");
    expect(
      failedWith({
        message: "stream disconnected before completion",
        codexErrorInfo: { responseStreamDisconnected: { httpStatusCode: null } },
      })?.kind,
    ).toBe("network");
    expect(
      failedWith({ message: "Selected model is at capacity", codexErrorInfo: "other" }),
    ).toEqual({ kind: "overloaded", message: "Selected model is at capacity" });
  });

  test("plans map to plan.updated (todo_list); usage is the turn's running total", () => {
    const mapper = new TurnEventMapper((e) => events.push(e), 0);
    mapper.handle(
      n({
        method: "turn/plan/updated",
        params: {
          ...ids,
          explanation: null,
          plan: [
            { step: "write code", status: "inProgress" },
            { step: "test", status: "pending" },
          ],
        },
      }),
    );
    const breakdown = {
      totalTokens: 15,
      inputTokens: 10,
      cachedInputTokens: 2,
      cacheWriteInputTokens: 0,
      outputTokens: 5,
      reasoningOutputTokens: 3,
    };
    const usageUpdate = n({
      method: "thread/tokenUsage/updated",
      params: {
        ...ids,
        tokenUsage: { total: breakdown, last: breakdown, modelContextWindow: null },
      },
    });
    // Two model responses in one turn (a tool call and its follow-up); the second one says how
    // large the window is, and the context filled is the latest response's total, not a sum.
    mapper.handle(usageUpdate);
    mapper.handle(
      n({
        method: "thread/tokenUsage/updated",
        params: {
          ...ids,
          tokenUsage: { total: breakdown, last: breakdown, modelContextWindow: 1000 },
        },
      }),
    );
    expect(events).toEqual([
      {
        type: "plan.updated",
        planRef: "plan:tu",
        kind: "todo_list",
        steps: [
          { text: "write code", status: "running" },
          { text: "test", status: "pending" },
        ],
        rawEventId: "raw_x",
      },
      {
        type: "usage",
        inputTokens: 10,
        outputTokens: 5,
        cachedInputTokens: 2,
        reasoningTokens: 3,
        contextTokens: 15,
        rawEventId: "raw_x",
      },
      {
        type: "usage",
        inputTokens: 20,
        outputTokens: 10,
        cachedInputTokens: 4,
        reasoningTokens: 6,
        contextTokens: 15,
        contextWindow: 1000,
        rawEventId: "raw_x",
      },
    ]);
  });
});
