import { describe, expect, it } from "vitest";
import type { RunId } from "../ids.ts";
import { given } from "../testing/decider-spec.ts";
import { id } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";

function retry(s: ThreadScenario, runId: RunId) {
  return { type: "RetryRun", data: { threadId: s.threadId, runId } } as const;
}

/** A thread whose only run ended `failed` with a cause after its turn started. */
function failedRun() {
  const s = new ThreadScenario().create();
  const runId = s.queue("build it");
  const started = s.start(runId);
  s.exec({
    type: "CompleteProviderTurn",
    data: {
      threadId: s.threadId,
      providerTurnId: started.providerTurnId,
      status: "failed",
      error: "model HTTP 400",
    },
  });
  return { s, runId, ...started };
}

describe("E4: RetryRun", () => {
  it("given a failed latest run, when retried, then it is queued again with its error cleared", () => {
    const { s, runId } = failedRun();
    expect(s.state.runs.get(runId)).toMatchObject({ status: "failed", error: "model HTTP 400" });
    const { after } = given(s.events)
      .when(retry(s, runId))
      .then([{ type: "RunRetryQueued", data: { runId } }]);
    if (after.kind !== "thread") throw new Error();
    expect(after.runs.get(runId)).toMatchObject({
      status: "queued",
      error: null,
      completedAt: null,
    });
    expect([...after.queuedRunIds]).toEqual([runId]);
    expect(after.lastSettledRunId).toBeNull();
  });

  it("given a retried run, when it starts, then its new attempt is a `retry` with the next ordinal", () => {
    const { s, runId, providerThreadId, attemptId } = failedRun();
    s.exec(retry(s, runId));
    const again = s.start(runId, providerThreadId);
    const attempts = (s.state.attemptIdsByRun.get(runId) ?? []).map((a) => s.state.attempts.get(a));
    expect(attempts.map((a) => [a?.attemptOrdinal, a?.reason, a?.status])).toEqual([
      [1, "initial", "failed"],
      [2, "retry", "running"],
    ]);
    expect(s.state.runs.get(runId)).toMatchObject({
      status: "running",
      activeAttemptId: again.attemptId,
      rootNodeId: again.rootNodeId,
    });
    expect(again.attemptId).not.toBe(attemptId);
    s.finish(again.providerTurnId);
    expect(s.state.runs.get(runId)?.status).toBe("completed");
    expect(s.state.latestCompletedRunId).toBe(runId);
  });

  it("given a run interrupted by a restart, when retried, then its not_resumable requests expire", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    const started = s.start(runId);
    s.exec({
      type: "OpenRuntimeRequest",
      data: {
        threadId: s.threadId,
        providerTurnId: started.providerTurnId,
        requestId: id("request", "r"),
        nodeId: id("node", "req"),
        kind: "command",
        providerSessionId: id("providerSession", "s"),
        title: "Run `ls`?",
        nativeRequestRef: "42",
      },
    });
    s.exec({
      type: "RecoverInterruptedRun",
      data: { threadId: s.threadId, runId, reason: "Skein restarted" },
    });
    expect(s.state.requests.get(id("request", "r"))).toMatchObject({
      status: "pending",
      responseCapability: { type: "not_resumable" },
    });
    const { after } = given(s.events)
      .when(retry(s, runId))
      .then([{ type: "RunRetryQueued", data: { runId } }]);
    if (after.kind !== "thread") throw new Error();
    expect(after.requests.get(id("request", "r"))?.status).toBe("expired");
    expect(after.runs.get(runId)?.status).toBe("queued");
  });

  it("given a run that failed before it started, when retried and started, then its first attempt is still `initial`", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    s.exec({ type: "FailRun", data: { threadId: s.threadId, runId, error: "folder missing" } });
    s.exec(retry(s, runId));
    s.start(runId);
    const attempts = (s.state.attemptIdsByRun.get(runId) ?? []).map((a) => s.state.attempts.get(a));
    expect(attempts.map((a) => [a?.attemptOrdinal, a?.reason])).toEqual([[1, "initial"]]);
  });

  it("given a completed run, when retried, then it is an invalid transition", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    s.finish(s.start(runId).providerTurnId);
    given(s.events).when(retry(s, runId)).thenFails("invalid_transition");
  });

  it("given a run that is still running, when retried, then it is an invalid transition", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    s.start(runId);
    given(s.events).when(retry(s, runId)).thenFails("invalid_transition");
  });

  it("given a later run, when an earlier failed run is retried, then it is a conflict", () => {
    const { s, runId } = failedRun();
    const later = s.queue("next");
    s.finish(s.start(later).providerTurnId);
    given(s.events)
      .when(retry(s, runId))
      .thenFails("conflict", /only the latest run/);
  });

  it("given a later run that was cancelled, when the failed run is retried, then it is queued", () => {
    const { s, runId } = failedRun();
    const later = s.queue("never mind");
    s.exec({ type: "CancelQueuedRun", data: { threadId: s.threadId, runId: later } });
    given(s.events)
      .when(retry(s, runId))
      .then([{ type: "RunRetryQueued", data: { runId } }]);
  });

  it("given a busy thread (a run queued after it), when retried, then it is a conflict", () => {
    const { s, runId } = failedRun();
    s.queue("next");
    given(s.events)
      .when(retry(s, runId))
      .thenFails("conflict", /queued/);
  });

  it("given an archived thread, when retried, then it is refused", () => {
    const { s, runId } = failedRun();
    s.exec({ type: "ArchiveThread", data: { threadId: s.threadId } });
    given(s.events)
      .when(retry(s, runId))
      .thenFails("precondition_failed", /archived/);
  });

  it("given an unknown run, when retried, then it is not found", () => {
    const { s } = failedRun();
    given(s.events)
      .when(retry(s, id("run", "nope")))
      .thenFails("not_found");
  });
});
