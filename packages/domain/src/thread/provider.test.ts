import { describe, expect, it } from "vitest";
import { given } from "../testing/decider-spec.ts";
import { id, payloadFor } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";

describe("RecordProviderThread", () => {
  it("records a not_loaded provider thread bound to the app thread", () => {
    const s = new ThreadScenario().create();
    given(s.events)
      .when({
        type: "RecordProviderThread",
        data: {
          threadId: s.threadId,
          providerThreadId: id("providerThread", "a"),
          provider: "claude",
        },
      })
      .then([
        {
          type: "ProviderThreadRecorded",
          data: {
            providerThread: {
              status: "not_loaded",
              appThreadId: s.threadId,
              ownerNodeId: null,
              firstRunOrdinal: null,
              handoffIds: [],
            },
          },
        },
      ]);
  });

  it("records a subagent-owned provider thread under its node", () => {
    const s = new ThreadScenario().create();
    const { rootNodeId } = s.start(s.queue());
    given(s.events)
      .when({
        type: "RecordProviderThread",
        data: {
          threadId: s.threadId,
          providerThreadId: id("providerThread", "child"),
          provider: "codex",
          ownerNodeId: rootNodeId,
          forkedFrom: {
            providerThreadId: null,
            nativeThreadRef: "n1",
            nativeTurnRef: null,
            transferId: null,
          },
        },
      })
      .then([
        {
          type: "ProviderThreadRecorded",
          data: { providerThread: { appThreadId: null, ownerNodeId: rootNodeId } },
        },
      ]);
  });

  it("rejects duplicates and unknown owner nodes", () => {
    const s = new ThreadScenario().create();
    const pt = s.providerThread();
    given(s.events)
      .when({
        type: "RecordProviderThread",
        data: { threadId: s.threadId, providerThreadId: pt, provider: "codex" },
      })
      .thenFails("conflict");
    given(s.events)
      .when({
        type: "RecordProviderThread",
        data: {
          threadId: s.threadId,
          providerThreadId: id("providerThread", "n"),
          provider: "codex",
          ownerNodeId: id("node", "x"),
        },
      })
      .thenFails("not_found");
  });
});

describe("UpdateProviderThread", () => {
  it("patches status, refs, coverage and handoff ids", () => {
    const s = new ThreadScenario().create();
    const run = s.completedRun();
    s.exec({
      type: "CreateContextTransfer",
      data: {
        threadId: s.threadId,
        transferId: id("transfer", "t"),
        type: "provider_handoff",
        sourceThreadId: s.threadId,
        sourcePoint: {
          threadId: s.threadId,
          runId: run.runId,
          checkpointId: null,
          turnItemId: null,
          providerThreadRef: null,
          providerTurnRef: null,
        },
        sourceProvider: "codex",
        targetProvider: "claude",
        createdBy: "user",
      },
    });
    s.exec({
      type: "RecordHandoff",
      data: {
        threadId: s.threadId,
        handoffId: id("handoff", "h"),
        transferId: id("transfer", "t"),
        targetRunId: run.runId,
        kind: "portable_context",
        strategy: "full_thread_summary",
        fromProviderThreadIds: [run.providerThreadId],
        toProviderThreadId: run.providerThreadId,
        coveredRunOrdinals: { from: 1, to: 1 },
        summaryText: "s",
        payload: payloadFor(s.threadId),
      },
    });
    given(s.events)
      .when({
        type: "UpdateProviderThread",
        data: {
          threadId: s.threadId,
          providerThreadId: run.providerThreadId,
          status: "archived",
          nativeThreadRef: "native-2",
          lastRunOrdinal: 3,
          addHandoffIds: [id("handoff", "h")],
        },
      })
      .then([
        {
          type: "ProviderThreadUpdated",
          data: {
            changes: {
              status: "archived",
              nativeThreadRef: "native-2",
              lastRunOrdinal: 3,
              handoffIds: [id("handoff", "h")],
            },
          },
        },
      ]);
  });

  it("rejects disallowed status changes, empty patches, inverted coverage and unknown handoffs", () => {
    const s = new ThreadScenario().create();
    const pt = s.providerThread();
    s.exec({
      type: "UpdateProviderThread",
      data: { threadId: s.threadId, providerThreadId: pt, status: "closed" },
    });
    const base = { threadId: s.threadId, providerThreadId: pt };
    given(s.events)
      .when({ type: "UpdateProviderThread", data: { ...base, status: "active" } })
      .thenFails("invalid_transition");
    given(s.events)
      .when({ type: "UpdateProviderThread", data: { ...base, status: "closed" } })
      .thenFails("validation");
    given(s.events)
      .when({
        type: "UpdateProviderThread",
        data: { ...base, firstRunOrdinal: 5, lastRunOrdinal: 2 },
      })
      .thenFails("validation");
    given(s.events)
      .when({
        type: "UpdateProviderThread",
        data: { ...base, addHandoffIds: [id("handoff", "x")] },
      })
      .thenFails("not_found");
    given(s.events)
      .when({
        type: "UpdateProviderThread",
        data: { ...base, providerThreadId: id("providerThread", "x"), nativeThreadRef: "n" },
      })
      .thenFails("not_found");
  });
});

describe("StartProviderTurn", () => {
  it("turns attempt, root node, run and provider thread active", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    const { attemptId, rootNodeId, providerThreadId } = s.start(runId, undefined, false);
    const { after } = given(s.events)
      .when({
        type: "StartProviderTurn",
        data: {
          threadId: s.threadId,
          runId,
          providerTurnId: id("providerTurn", "t"),
          nativeTurnRef: "turn-1",
        },
      })
      .then([
        {
          type: "ProviderTurnStarted",
          data: {
            providerTurn: {
              ordinal: 1,
              status: "running",
              nodeId: rootNodeId,
              runAttemptId: attemptId,
              nativeTurnRef: "turn-1",
            },
          },
        },
      ]);
    if (after.kind !== "thread") throw new Error();
    expect(after.runs.get(runId)?.status).toBe("running");
    expect(after.attempts.get(attemptId)).toMatchObject({
      status: "running",
      providerTurnId: id("providerTurn", "t"),
    });
    expect(after.nodes.get(rootNodeId)?.status).toBe("running");
    expect(after.providerThreads.get(providerThreadId)?.status).toBe("active");
  });

  it("rejects a queued run, a second turn for the same attempt and duplicate turn ids", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    const cmd = (turn: string) =>
      ({
        type: "StartProviderTurn",
        data: { threadId: s.threadId, runId, providerTurnId: id("providerTurn", turn) },
      }) as const;
    given(s.events).when(cmd("a")).thenFails("invalid_transition");
    const { providerTurnId } = s.start(runId);
    given(s.events).when(cmd("b")).thenFails("invalid_transition");
    given(s.events)
      .when({ type: "StartProviderTurn", data: { threadId: s.threadId, runId, providerTurnId } })
      .thenFails("invalid_transition");
  });
});

describe("CompleteProviderTurn", () => {
  it("completes turn, attempt, root node and run; provider thread coverage grows and goes idle", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    const { providerTurnId, attemptId, rootNodeId, providerThreadId } = s.start(runId);
    const { after } = given(s.events)
      .when({
        type: "CompleteProviderTurn",
        data: {
          threadId: s.threadId,
          providerTurnId,
          status: "completed",
          usage: { inputTokens: 10, outputTokens: 5 },
        },
      })
      .then([
        {
          type: "ProviderTurnCompleted",
          data: { status: "completed", usage: { inputTokens: 10 } },
        },
        { type: "RunFinished", data: { runId, status: "completed", error: null } },
      ]);
    if (after.kind !== "thread") throw new Error();
    expect(after.runs.get(runId)?.status).toBe("completed");
    expect(after.attempts.get(attemptId)?.status).toBe("completed");
    expect(after.nodes.get(rootNodeId)?.status).toBe("completed");
    expect(after.providerThreads.get(providerThreadId)).toMatchObject({
      status: "idle",
      firstRunOrdinal: 1,
      lastRunOrdinal: 1,
    });
    expect(after.latestCompletedRunId).toBe(runId);
    expect(after.activeRunId).toBeNull();
  });

  it("a failed turn fails the run with the error text", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    const { providerTurnId } = s.start(runId);
    given(s.events)
      .when({
        type: "CompleteProviderTurn",
        data: { threadId: s.threadId, providerTurnId, status: "failed", error: "HTTP 500" },
      })
      .then([
        { type: "ProviderTurnCompleted" },
        { type: "RunFinished", data: { status: "failed", error: "HTTP 500" } },
      ]);
  });

  it("rejects a turn that already ended and unknown turns", () => {
    const s = new ThreadScenario().create();
    const { providerTurnId } = s.completedRun();
    given(s.events)
      .when({
        type: "CompleteProviderTurn",
        data: { threadId: s.threadId, providerTurnId, status: "completed" },
      })
      .thenFails("invalid_transition");
    given(s.events)
      .when({
        type: "CompleteProviderTurn",
        data: {
          threadId: s.threadId,
          providerTurnId: id("providerTurn", "x"),
          status: "completed",
        },
      })
      .thenFails("not_found");
  });
});
