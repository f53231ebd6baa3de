import { describe, expect, it } from "vitest";
import { given } from "../testing/decider-spec.ts";
import { id } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";

function running() {
  const s = new ThreadScenario().create();
  const runId = s.queue();
  const started = s.start(runId);
  return { s, runId, ...started };
}

describe("SteerRun", () => {
  it("R1: native steer records the text as a user message item of the same run", () => {
    const { s, runId, providerTurnId, rootNodeId } = running();
    const { after } = given(s.events)
      .when({
        type: "SteerRun",
        data: { threadId: s.threadId, runId, messageId: id("message", "steer"), text: "go left" },
      })
      .then([
        {
          type: "RunSteered",
          data: {
            message: { role: "user", runId, nodeId: rootNodeId, text: "go left" },
            item: { type: "user_message", runId, providerTurnId, text: "go left" },
          },
        },
      ]);
    if (after.kind !== "thread") throw new Error();
    expect(after.runs.get(runId)?.activeAttemptId).toBe(s.state.runs.get(runId)?.activeAttemptId);
  });

  it("rejects runs without a running turn and duplicate message ids", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    const steer = {
      type: "SteerRun",
      data: { threadId: s.threadId, runId, messageId: id("message", "x"), text: "t" },
    } as const;
    given(s.events).when(steer).thenFails("precondition_failed");
    s.start(runId, undefined, false);
    given(s.events)
      .when(steer)
      .thenFails("precondition_failed", /is starting/);
    s.exec({
      type: "StartProviderTurn",
      data: { threadId: s.threadId, runId, providerTurnId: id("providerTurn", "1") },
    });
    s.exec({
      type: "RestartAttempt",
      data: {
        threadId: s.threadId,
        runId,
        attemptId: id("attempt", "2"),
        rootNodeId: id("node", "2"),
        reason: "retry",
      },
    });
    given(s.events)
      .when(steer)
      .thenFails("precondition_failed", /no running provider turn/);
    const r = running();
    const userMessage = r.s.state.runs.get(r.runId)?.userMessageId ?? id("message", "none");
    given(r.s.events)
      .when({
        type: "SteerRun",
        data: { threadId: r.s.threadId, runId: r.runId, messageId: userMessage, text: "t" },
      })
      .thenFails("conflict");
  });
});

describe("RestartAttempt", () => {
  const restart = (
    s: ThreadScenario,
    runId: ReturnType<ThreadScenario["queue"]>,
    extra: object = {},
  ) =>
    ({
      type: "RestartAttempt",
      data: {
        threadId: s.threadId,
        runId,
        attemptId: id("attempt", "b"),
        rootNodeId: id("node", "root-b"),
        reason: "steering_restart",
        steer: { messageId: id("message", "steer"), text: "actually do X" },
        ...extra,
      },
    }) as const;

  it("R1: steering a provider without native steer → new attempt under the same RunId, old attempt superseded", () => {
    const { s, runId, attemptId, providerTurnId, rootNodeId } = running();
    const { events, after } = given(s.events)
      .when(restart(s, runId))
      .then([
        {
          type: "AttemptRestarted",
          data: {
            runId,
            previousAttemptId: attemptId,
            attempt: { runId, attemptOrdinal: 2, reason: "steering_restart", status: "pending" },
            rootNode: { kind: "root_turn", status: "pending" },
            message: { text: "actually do X", runId },
            item: { type: "user_message", runId },
          },
        },
      ]);
    if (after.kind !== "thread") throw new Error();
    expect(after.attempts.get(attemptId)?.status).toBe("superseded");
    expect(after.nodes.get(rootNodeId)?.status).toBe("interrupted");
    const run = after.runs.get(runId);
    expect(run?.activeAttemptId).toBe(id("attempt", "b"));
    expect(run?.rootNodeId).toBe(id("node", "root-b"));
    expect(run?.status).toBe("running");

    // The old turn reports later; it must not end the run. The new attempt's turn does.
    const log = [...s.events, ...events];
    const old = given(log)
      .when({
        type: "CompleteProviderTurn",
        data: { threadId: s.threadId, providerTurnId, status: "interrupted" },
      })
      .then([{ type: "ProviderTurnCompleted" }]);
    const log2 = [...log, ...old.events];
    const started = given(log2)
      .when({
        type: "StartProviderTurn",
        data: { threadId: s.threadId, runId, providerTurnId: id("providerTurn", "b") },
      })
      .then([
        {
          type: "ProviderTurnStarted",
          data: { providerTurn: { ordinal: 2, runAttemptId: id("attempt", "b") } },
        },
      ]);
    const finished = given([...log2, ...started.events])
      .when({
        type: "CompleteProviderTurn",
        data: {
          threadId: s.threadId,
          providerTurnId: id("providerTurn", "b"),
          status: "completed",
        },
      })
      .then([
        { type: "ProviderTurnCompleted" },
        { type: "RunFinished", data: { runId, status: "completed" } },
      ]);
    if (finished.after.kind !== "thread") throw new Error();
    expect(finished.after.attempts.get(attemptId)?.status).toBe("superseded");
    expect(finished.after.attempts.get(id("attempt", "b"))?.status).toBe("completed");
  });

  it("cancels the old turn's pending requests and returns a waiting run to running", () => {
    const { s, runId, providerTurnId } = running();
    s.exec({
      type: "OpenRuntimeRequest",
      data: {
        threadId: s.threadId,
        providerTurnId,
        requestId: id("request", "r"),
        nodeId: id("node", "req"),
        kind: "command",
        providerSessionId: id("providerSession", "s"),
        title: "run ls?",
      },
    });
    expect(s.state.runs.get(runId)?.status).toBe("waiting");
    const { after } = given(s.events)
      .when(restart(s, runId))
      .then([{ type: "AttemptRestarted" }]);
    if (after.kind !== "thread") throw new Error();
    expect(after.requests.get(id("request", "r"))?.status).toBe("cancelled");
    expect(after.runs.get(runId)?.status).toBe("running");
    expect(after.pendingRequestIds.size).toBe(0);
  });

  it("rejects inactive runs, duplicate ids and provider threads of another provider", () => {
    const { s, runId } = running();
    given(s.events)
      .when(restart(s, runId, { attemptId: s.state.runs.get(runId)?.activeAttemptId }))
      .thenFails("conflict");
    const claude = s.providerThread("claude");
    given(s.events)
      .when(restart(s, runId, { providerThreadId: claude }))
      .thenFails("precondition_failed");
    const done = new ThreadScenario().create();
    const r = done.completedRun();
    given(done.events).when(restart(done, r.runId)).thenFails("precondition_failed");
    const queued = done.queue();
    given(done.events).when(restart(done, queued)).thenFails("precondition_failed");
  });
});

describe("RecoverInterruptedRun", () => {
  it("R2: restart with a run in flight → run interrupted, request not_resumable, provider thread not_loaded", () => {
    const { s, runId, providerTurnId, attemptId, providerThreadId } = running();
    s.exec({
      type: "StartItem",
      data: {
        threadId: s.threadId,
        providerTurnId,
        nodeId: id("node", "msg"),
        kind: "assistant_message",
      },
    });
    s.exec({
      type: "OpenRuntimeRequest",
      data: {
        threadId: s.threadId,
        providerTurnId,
        requestId: id("request", "r"),
        nodeId: id("node", "req"),
        kind: "file-change",
        providerSessionId: id("providerSession", "s"),
        title: "edit a.ts?",
      },
    });
    const { after } = given(s.events)
      .when({
        type: "RecoverInterruptedRun",
        data: { threadId: s.threadId, runId, reason: "server restarted" },
      })
      .then([{ type: "RunRecovered", data: { runId, reason: "server restarted" } }]);
    if (after.kind !== "thread") throw new Error();
    expect(after.runs.get(runId)).toMatchObject({
      status: "interrupted",
      error: "server restarted",
    });
    expect(after.attempts.get(attemptId)?.status).toBe("interrupted");
    expect(after.providerTurns.get(providerTurnId)?.status).toBe("interrupted");
    // E15: visible after the restart as pending, not resumable, with the reason.
    expect(after.requests.get(id("request", "r"))).toMatchObject({
      status: "pending",
      responseCapability: { type: "not_resumable", reason: "server restarted" },
    });
    expect(after.nodes.get(id("node", "msg"))?.status).toBe("interrupted");
    expect(after.providerThreads.get(providerThreadId)?.status).toBe("not_loaded");
    expect(after.activeRunId).toBeNull();
    expect(after.openNodesByRun.size).toBe(0);
    expect(after.pendingRequestIds.size).toBe(0);
  });

  it("R2: the next message works after recovery", () => {
    const { s, runId } = running();
    s.exec({
      type: "RecoverInterruptedRun",
      data: { threadId: s.threadId, runId, reason: "crash" },
    });
    const next = s.queue("again");
    const pt = s.state.runs.get(runId)?.providerThreadId ?? id("providerThread", "x");
    given(s.events)
      .when({
        type: "StartRun",
        data: {
          threadId: s.threadId,
          runId: next,
          attemptId: id("attempt", "n"),
          rootNodeId: id("node", "n"),
          providerThreadId: pt,
        },
      })
      .then([{ type: "RunStarted" }]);
  });

  it("rejects queued and finished runs", () => {
    const s = new ThreadScenario().create();
    const done = s.completedRun();
    const queued = s.queue();
    for (const runId of [done.runId, queued]) {
      given(s.events)
        .when({ type: "RecoverInterruptedRun", data: { threadId: s.threadId, runId, reason: "x" } })
        .thenFails("invalid_transition");
    }
  });
});
