import { visibleItemsOf } from "./thread-detail.ts";
import { describe, expect, it } from "vitest";
import type { PlanArtifact } from "../entities/plan-artifact.ts";
import type { ProviderSession } from "../entities/provider-session.ts";
import type { ProviderThread } from "../entities/provider-thread.ts";
import type { RuntimeRequest } from "../entities/runtime-request.ts";
import { id } from "../testing/fixtures.ts";
import { richScenario } from "../testing/rich-scenario.ts";
import { detailFromRows, incrementalRows, tableRows } from "../testing/rows.ts";
import { ThreadScenario } from "../testing/scenario.ts";
import { assembleExecutionGraph } from "./execution-graph.ts";
import { assemblePendingRequests } from "./pending-requests.ts";
import { projectEvent } from "./project-event.ts";
import { assembleProviderSessions } from "./provider-sessions.ts";
import { rebuildRows } from "./rebuild.ts";
import type { ThreadShell } from "./thread-shell.ts";
import { assembleThreadShells } from "./thread-shells.ts";

function lastEvent(s: ThreadScenario) {
  const event = s.events.at(-1);
  if (!event) throw new Error("no events");
  return event;
}

describe("projectEvent", () => {
  it("writes one row per touched entity with thread, sort key, run ordinal and status", () => {
    const s = new ThreadScenario().create();
    s.queue("hi");
    const writes = projectEvent(s.state, lastEvent(s));
    const item = writes.find((w) => w.op === "put" && w.table === "turn_items");
    expect(item).toMatchObject({
      threadId: s.threadId,
      sortKey: 1,
      runOrdinal: 1,
      status: "completed",
      data: { type: "user_message" },
    });
    expect(writes.map((w) => w.table).sort()).toEqual([
      "messages",
      "runs",
      "threads",
      "turn_items",
    ]);
    const shell = writes.find((w) => w.table === "threads");
    expect(shell).toMatchObject({
      id: s.threadId,
      status: "running",
      data: { runCount: 1, queuedRunCount: 1 },
    });
  });

  it("streaming deltas rewrite the item and message, not the shell", () => {
    const s = new ThreadScenario().create();
    const { providerTurnId } = s.start(s.queue());
    s.exec({
      type: "StartItem",
      data: {
        threadId: s.threadId,
        providerTurnId,
        nodeId: id("node", "m"),
        kind: "assistant_message",
      },
    });
    s.exec({
      type: "AppendItemDelta",
      data: { threadId: s.threadId, nodeId: id("node", "m"), delta: "x" },
    });
    const writes = projectEvent(s.state, lastEvent(s));
    expect(writes.map((w) => w.table).sort()).toEqual(["messages", "turn_items"]);
  });

  it("rebuilding from the whole log equals the incrementally maintained rows", () => {
    const rich = richScenario();
    const incremental = incrementalRows(rich.s.events);
    incrementalRows(rich.fork.events, incremental);
    const rebuilt = rebuildRows([
      [`thread-${rich.s.threadId}`, rich.s.events],
      [`thread-${rich.fork.threadId}`, rich.fork.events],
    ]);
    expect(rebuilt).toEqual(incremental);
    expect(tableRows(rebuilt, "turn_items", rich.s.threadId)).toHaveLength(
      rich.s.state.turnItems.size,
    );
  });
});

describe("turnItems (P6)", () => {
  it("are in backend order: user message, then the run's items, then its checkpoint", () => {
    const s = new ThreadScenario().create();
    s.completedRun("one", { checkpoint: true });
    s.completedRun("two");
    const detail = detailFromRows(incrementalRows(s.events), s.threadId);
    expect(detail.turnItems.map((i) => [i.type, i.runOrdinal])).toEqual([
      ["user_message", 1],
      ["assistant_message", 1],
      ["checkpoint", 1],
      ["user_message", 2],
      ["assistant_message", 2],
    ]);
    expect(detail.runs.map((r) => r.ordinal)).toEqual([1, 2]);
  });

  it("keep the provider of each run so mixed-provider threads are visible (R3)", () => {
    const rich = richScenario();
    const detail = detailFromRows(incrementalRows(rich.s.events), rich.s.threadId);
    const providers = new Map(
      detail.turnItems.filter((i) => i.runOrdinal).map((i) => [i.runOrdinal, i.provider]),
    );
    expect(providers.get(1)).toBe("codex");
    expect(providers.get(2)).toBe("claude");
    expect(detail.turnItems.some((i) => i.type === "handoff" && i.runOrdinal === 2)).toBe(true);
  });

  it("T9: subagent child messages are hidden from turnItems but kept in the graph", () => {
    const rich = richScenario();
    const rows = incrementalRows(rich.s.events);
    const detail = detailFromRows(rows, rich.s.threadId);
    expect(detail.turnItems.some((i) => i.nodeId === id("node", "subchild"))).toBe(false);
    const graph = assembleExecutionGraph({
      runs: tableRows(rows, "runs"),
      attempts: tableRows(rows, "attempts"),
      nodes: tableRows(rows, "nodes"),
      providerTurns: tableRows(rows, "provider_turns"),
      providerThreads: tableRows(rows, "provider_threads"),
      requests: tableRows(rows, "requests"),
    });
    const root = graph.runs[0]?.attempts[0]?.root;
    const sub = root?.children.find((c) => c.node.id === id("node", "sub"));
    expect(sub?.children.map((c) => c.node.id)).toEqual([id("node", "subchild")]);
    const approval = root?.children.find((c) => c.node.kind === "approval_request");
    expect(approval?.request?.id).toBe(id("request", "cmd"));
    expect(graph.runs[0]?.attempts[0]?.providerTurn?.status).toBe("completed");
    expect(
      tableRows(rows, "messages").some(
        (m) => (m.data as { nodeId: string }).nodeId === id("node", "subchild"),
      ),
    ).toBe(true);
  });

  it("visibleTurnItems leave out items of rolled-back runs; turnItems keep them", () => {
    const rich = richScenario();
    const detail = detailFromRows(incrementalRows(rich.s.events), rich.s.threadId);
    expect(detail.turnItems.some((i) => i.runOrdinal === 2)).toBe(true);
    expect(visibleItemsOf(detail).some((i) => i.runOrdinal === 2 || i.runOrdinal === 3)).toBe(
      false,
    );
    expect(visibleItemsOf(detail).at(-1)?.runOrdinal).toBe(4);
    expect(
      visibleItemsOf(detail).some((i) => i.type === "checkpoint" && i.action === "restored"),
    ).toBe(true);
  });
});

describe("thread shell status (P1)", () => {
  const shell = (s: ThreadScenario) =>
    tableRows<ThreadShell>(incrementalRows(s.events), "threads")[0]?.data;

  it("idle → running → waiting → running → idle, failed when the last run failed", () => {
    const s = new ThreadScenario().create();
    expect(shell(s)).toMatchObject({ status: "idle", runCount: 0, pendingRequestCount: 0 });
    const runId = s.queue();
    expect(shell(s)?.status).toBe("running");
    const { providerTurnId } = s.start(runId);
    expect(shell(s)).toMatchObject({ status: "running", activeRunId: runId });
    s.exec({
      type: "OpenRuntimeRequest",
      data: {
        threadId: s.threadId,
        providerTurnId,
        requestId: id("request", "r"),
        nodeId: id("node", "r"),
        kind: "command",
        providerSessionId: id("providerSession", "s"),
        title: "ok?",
      },
    });
    expect(shell(s)).toMatchObject({ status: "waiting", pendingRequestCount: 1 });
    s.exec({
      type: "ResolveRuntimeRequest",
      data: { threadId: s.threadId, requestId: id("request", "r"), decision: "accept" },
    });
    expect(shell(s)).toMatchObject({ status: "running", pendingRequestCount: 0 });
    s.finish(providerTurnId, "failed");
    expect(shell(s)).toMatchObject({ status: "failed", runCount: 1, activeRunId: null });
    s.completedRun();
    expect(shell(s)).toMatchObject({ status: "idle", runCount: 2 });
    const cancelled = s.queue();
    s.exec({ type: "CancelQueuedRun", data: { threadId: s.threadId, runId: cancelled } });
    expect(shell(s)).toMatchObject({ status: "idle", runCount: 2 });
  });

  it("E3: a compaction run stays a run of the graph but is not counted as a turn, cancelled or not", () => {
    const s = new ThreadScenario().create();
    s.completedRun();
    const queueCompaction = () => {
      const runId = id("run", `compact${s.state.runOrder.length}`);
      s.exec({
        type: "QueueRun",
        data: {
          threadId: s.threadId,
          runId,
          messageId: id("message", `compact${s.state.runOrder.length}`),
          text: "/compact",
          provider: "codex",
          compact: true,
        },
      });
      return runId;
    };
    const compaction = queueCompaction();
    expect(shell(s)).toMatchObject({ runCount: 1, queuedRunCount: 1 });
    s.exec({ type: "CancelQueuedRun", data: { threadId: s.threadId, runId: compaction } });
    s.completedRun();
    expect(shell(s)).toMatchObject({ runCount: 2 });
    expect(s.state.runOrder).toHaveLength(3);
  });

  it("assembleThreadShells lists the most recently active first and hides archived threads", () => {
    const a = new ThreadScenario("a").create();
    const b = new ThreadScenario("b").create();
    b.completedRun();
    const c = new ThreadScenario("c").create();
    c.exec({ type: "ArchiveThread", data: { threadId: c.threadId } });
    const rows = incrementalRows(a.events);
    incrementalRows(b.events, rows);
    incrementalRows(c.events, rows);
    const shells = tableRows<ThreadShell>(rows, "threads");
    expect(assembleThreadShells(shells).map((t) => t.id)).toEqual([b.threadId, a.threadId]);
    expect(assembleThreadShells(shells, { includeArchived: true })).toHaveLength(3);
  });
});

describe("pending requests (P5) and provider sessions (P4)", () => {
  it("a pending user_input request carries its questions, whose ids key the answers", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    const { providerTurnId } = s.start(runId);
    const question = {
      id: "q_color",
      header: null,
      question: "Which color?",
      options: [{ label: "red", description: null }],
      multiSelect: false,
    };
    s.exec({
      type: "OpenRuntimeRequest",
      data: {
        threadId: s.threadId,
        providerTurnId,
        requestId: id("request", "ask"),
        nodeId: id("node", "ask"),
        kind: "user_input",
        providerSessionId: id("providerSession", "s"),
        title: "Which color?",
        questions: [question],
      },
    });
    const rows = incrementalRows(s.events);
    const pending = assemblePendingRequests(
      tableRows<RuntimeRequest>(rows, "requests"),
      tableRows<PlanArtifact>(rows, "plans"),
    );
    expect(pending.map((r) => [r.kind, r.questions])).toEqual([["user_input", [question]]]);
    // Without the plan rows (or for approvals) there is nothing to ask.
    expect(
      assemblePendingRequests(tableRows<RuntimeRequest>(rows, "requests"))[0]?.questions,
    ).toEqual([]);
  });

  it("E15: lists pending requests oldest first, answerable only while live, still listed after a restart", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    const { providerTurnId } = s.start(runId);
    for (const n of ["a", "b"]) {
      s.exec({
        type: "OpenRuntimeRequest",
        data: {
          threadId: s.threadId,
          providerTurnId,
          requestId: id("request", n),
          nodeId: id("node", n),
          kind: "file-change",
          providerSessionId: id("providerSession", "s"),
          title: n,
        },
      });
    }
    const rows = incrementalRows(s.events);
    const live = assemblePendingRequests(tableRows<RuntimeRequest>(rows, "requests"));
    expect(live.map((r) => [r.id, r.answerable])).toEqual([
      [id("request", "a"), true],
      [id("request", "b"), true],
    ]);
    expect(detailFromRows(rows, s.threadId).pendingRequests).toHaveLength(2);
    s.exec({
      type: "RecoverInterruptedRun",
      data: { threadId: s.threadId, runId, reason: "restart" },
    });
    const after = incrementalRows(s.events);
    // E15: still listed after the restart, no longer answerable.
    expect(
      assemblePendingRequests(tableRows<RuntimeRequest>(after, "requests")).map((r) => [
        r.id,
        r.answerable,
      ]),
    ).toEqual([
      [id("request", "a"), false],
      [id("request", "b"), false],
    ]);
    expect(detailFromRows(after, s.threadId).pendingRequests).toHaveLength(2);
    expect(
      tableRows<RuntimeRequest>(after, "requests").every(
        (r) => r.data.responseCapability.type === "not_resumable",
      ),
    ).toBe(true);
  });

  it("groups provider threads under their sessions", () => {
    const s = new ThreadScenario().create();
    s.exec({
      type: "RecordProviderThread",
      data: {
        threadId: s.threadId,
        providerThreadId: id("providerThread", "x"),
        provider: "codex",
        providerSessionId: id("providerSession", "s"),
      },
    });
    const rows = incrementalRows(s.events);
    const session = {
      id: "pss_s",
      provider: "codex",
      status: "ready",
      cwd: "/w",
      model: null,
      createdAt: "2025-01-01T00:00:00.000Z",
    } as unknown as ProviderSession;
    const grouped = assembleProviderSessions({
      sessions: [
        {
          id: session.id,
          threadId: null,
          sortKey: 0,
          runOrdinal: null,
          status: "ready",
          data: session,
        },
      ],
      providerThreads: tableRows<ProviderThread>(rows, "provider_threads"),
    });
    expect(grouped[0]?.providerThreads.map((t) => t.id)).toEqual([id("providerThread", "x")]);
  });
});
