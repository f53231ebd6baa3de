import type { StoredEvent } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { permissionAsk } from "./permission.ts";
import { RunUpdates } from "./run-updates.ts";
import { parseSlash } from "./slash-commands.ts";

const RUN = "run_1" as never;
const AT = "2026-01-01T00:00:00.000Z";
let sequence = 0;
const event = (type: string, data: unknown): StoredEvent => ({
  sequence: ++sequence,
  streamId: "thread-thr_1",
  streamVersion: sequence,
  type,
  data,
  commandId: null,
  recordedAt: AT,
});
const base = (id: string, nodeId: string, runId = RUN) => ({
  id,
  threadId: "thr_1",
  runId,
  runOrdinal: 1,
  nodeId,
  providerTurnId: null,
  nativeItemRef: null,
  provider: "codex",
  status: "running",
  createdAt: AT,
  updatedAt: AT,
});
const started = (item: Record<string, unknown>, runId = RUN) =>
  event("ItemStarted", { node: { id: item.nodeId, runId }, message: null, item });

describe("B19: a run's events as ACP updates", () => {
  it("streams a message as it is written, then says what was not streamed", () => {
    const updates = new RunUpdates(RUN);
    const message = {
      ...base("itm_m", "nod_m"),
      type: "assistant_message",
      messageId: "msg_1",
      text: "",
    };
    expect(updates.apply(started(message)).updates).toEqual([]);
    expect(
      updates.apply(event("ItemDeltaAppended", { nodeId: "nod_m", delta: "Hel" })).updates,
    ).toEqual([{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hel" } }]);
    const done = updates.apply(
      event("ItemCompleted", {
        nodeId: "nod_m",
        status: "completed",
        content: { type: "assistant_message", text: "Hello" },
      }),
    );
    expect(done.updates).toEqual([
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "lo" } },
    ]);
  });

  it("a command is a tool call that ends with its output; other runs' items give nothing", () => {
    const updates = new RunUpdates(RUN);
    const command = { ...base("itm_c", "nod_c"), type: "command_execution", input: "ls" };
    expect(updates.apply(started(command)).updates).toEqual([
      expect.objectContaining({
        sessionUpdate: "tool_call",
        toolCallId: "itm_c",
        kind: "execute",
        title: "ls",
      }),
    ]);
    expect(
      updates.apply(event("ItemDeltaAppended", { nodeId: "nod_c", delta: "a.txt" })).updates,
    ).toEqual([]);
    const end = updates.apply(
      event("ItemCompleted", {
        nodeId: "nod_c",
        status: "failed",
        content: { type: "command_execution", input: "ls", output: "a.txt", exitCode: 2 },
      }),
    );
    expect(end.updates).toEqual([
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "itm_c",
        status: "failed",
        content: [{ type: "content", content: { type: "text", text: "a.txt" } }],
      },
    ]);
    const other = {
      ...base("itm_o", "nod_o", "run_2" as never),
      type: "command_execution",
      input: "x",
    };
    expect(updates.apply(started(other, "run_2" as never)).updates).toEqual([]);
  });

  it("a request of the run is handed on with its questions; the run's end is told once", () => {
    const updates = new RunUpdates(RUN);
    const request = { id: "req_1", runId: RUN, kind: "command", title: "Run ls?", detail: null };
    expect(updates.apply(event("RuntimeRequestOpened", { request, plan: null })).request).toEqual({
      request,
      questions: [],
    });
    expect(
      updates.apply(event("RunFinished", { runId: "run_2", status: "failed", error: "x" })).end,
    ).toBeNull();
    expect(
      updates.apply(event("RunFinished", { runId: RUN, status: "interrupted", error: null })).end,
    ).toEqual({
      status: "interrupted",
      error: null,
    });
    expect(updates.apply(event("RunCancelled", { runId: RUN })).end).toEqual({
      status: "cancelled",
      error: null,
    });
  });

  it("a todo list is a plan", () => {
    const updates = new RunUpdates(RUN);
    const plan = {
      runId: RUN,
      kind: "todo_list",
      steps: [
        { id: "1", text: "read", status: "completed" },
        { id: "2", text: "write", status: "running" },
      ],
    };
    expect(updates.apply(event("PlanUpdated", { plan, node: null, item: null })).updates).toEqual([
      {
        sessionUpdate: "plan",
        entries: [
          { content: "read", priority: "medium", status: "completed" },
          { content: "write", priority: "medium", status: "in_progress" },
        ],
      },
    ]);
  });
});

describe("B19: permission requests and slash commands", () => {
  const request = (kind: string) =>
    ({ id: "req_1", kind, title: "Run rm -rf build?", detail: "in /work" }) as never;

  it("an approval offers allow once, allow for the session and reject; each maps to Skein's decision", () => {
    const ask = permissionAsk("thr_1", request("command"), [])!;
    expect(ask.params.options.map((o) => o.kind)).toEqual([
      "allow_once",
      "allow_always",
      "reject_once",
    ]);
    expect(ask.params.toolCall).toMatchObject({ toolCallId: "req_1", kind: "execute" });
    const pick = (optionId: string) => ask.answer({ outcome: { outcome: "selected", optionId } });
    expect(pick("accept")).toEqual({ decision: "accept" });
    expect(pick("accept_for_session")).toEqual({ decision: "accept_for_session" });
    expect(pick("decline")).toEqual({ decision: "decline" });
    expect(pick("made-up")).toEqual({ decision: "decline" });
    expect(ask.answer({ outcome: { outcome: "cancelled" } })).toEqual({ decision: "cancel" });
  });

  it("one question with choices is asked as its choices; anything else cannot be asked", () => {
    const question = {
      id: "q1",
      header: null,
      question: "Which color?",
      options: [
        { label: "red", description: null },
        { label: "blue", description: null },
      ],
      multiSelect: false,
    };
    const ask = permissionAsk("thr_1", request("user_input"), [question])!;
    expect(ask.params.options.map((o) => o.name)).toEqual(["red", "blue", "Do not answer"]);
    expect(ask.answer({ outcome: { outcome: "selected", optionId: "answer_1" } })).toEqual({
      decision: "accept",
      answers: { q1: "blue" },
    });
    expect(permissionAsk("thr_1", request("user_input"), [question, question])).toBeNull();
    expect(permissionAsk("thr_1", request("auth_refresh"), [])).toBeNull();
  });

  it("parses Skein's slash commands and leaves any other /text to the provider", () => {
    expect(parseSlash("/fork")).toEqual({ name: "fork", title: null });
    expect(parseSlash("  /fork  Side quest ")).toEqual({ name: "fork", title: "Side quest" });
    expect(parseSlash("/switch claude")).toEqual({ name: "switch", provider: "claude" });
    expect(parseSlash("/bring-back thr_abc take the tests")).toEqual({
      name: "bring-back",
      forkThreadId: "thr_abc",
      text: "take the tests",
    });
    expect(parseSlash("/compact")).toBeNull();
    expect(parseSlash("/forkify")).toBeNull();
    expect(parseSlash("please /fork")).toBeNull();
  });
});
