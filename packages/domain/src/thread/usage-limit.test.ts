import { describe, expect, it } from "vitest";
import { type ThreadUsageLimit, usageLimitPlan } from "../entities/usage-limit.ts";
import type { RunId } from "../ids.ts";
import { shellStatusOf } from "../projections/thread-shell.ts";
import { nextQueuedRun } from "../state/thread-state.ts";
import { given } from "../testing/decider-spec.ts";
import { ThreadScenario } from "../testing/scenario.ts";

/** A thread whose run failed at a usage limit (the provider asked for `retryAfterMs`). */
function limited(retryAfterMs?: number, queuedBehind = 0) {
  const s = new ThreadScenario().create();
  const runId = s.queue("build it");
  const started = s.start(runId);
  const behind: RunId[] = [];
  for (let i = 0; i < queuedBehind; i += 1) behind.push(s.queue(`next ${i}`));
  const at = s.now();
  const events = s.exec({
    type: "CompleteProviderTurn",
    data: {
      threadId: s.threadId,
      providerTurnId: started.providerTurnId,
      status: "failed",
      error: "The Codex turn failed: 429 Too Many Requests.",
      usageLimit: retryAfterMs === undefined ? {} : { retryAfterMs },
    },
  });
  return { s, runId, behind, events, started, failedAt: s.now(), before: at };
}

const resume = (s: ThreadScenario, runId: RunId) =>
  ({ type: "ResumeAfterUsageLimit", data: { threadId: s.threadId, runId } }) as const;

describe("issue 32: a run failed at a usage limit", () => {
  it("records the limit with its reset (the command's time plus the asked wait) on the thread", () => {
    const { s, runId, events, failedAt } = limited(120_000);
    const resetsAt = new Date(Date.parse(failedAt) + 120_000).toISOString();
    expect(events.map((e) => e.type)).toEqual([
      "ProviderTurnCompleted",
      "RunFinished",
      "UsageLimitReached",
    ]);
    expect(events[2]?.data).toMatchObject({ runId, provider: "codex", resetsAt });
    expect(s.state.thread?.usageLimit).toEqual({
      runId,
      provider: "codex",
      resetsAt,
      reachedAt: failedAt,
      resumedAt: null,
      automaticResumes: 0,
    });
    expect(s.state.runs.get(runId)?.status).toBe("failed");
  });

  it("records an unknown reset as null when the provider named no wait", () => {
    const { s } = limited(undefined);
    expect(s.state.thread?.usageLimit?.resetsAt).toBeNull();
  });

  it("keeps the queue: messages behind the run stay queued, in order; the thread reads failed", () => {
    const { s, behind } = limited(60_000, 2);
    expect([...s.state.queuedRunIds]).toEqual(behind);
    for (const id of behind) expect(s.state.runs.get(id)?.status).toBe("queued");
    expect(shellStatusOf(s.state)).toBe("failed");
    s.queue("switched", "claude");
    expect(shellStatusOf(s.state)).toBe("running");
  });

  it("holds its provider's queued runs while it stands; a run for another provider may go", () => {
    const { s, behind } = limited(60_000, 1);
    expect(nextQueuedRun(s.state)).toBeUndefined();
    const other = s.queue("switched", "claude");
    expect(nextQueuedRun(s.state)?.id).toBe(other);
    expect(s.state.runs.get(behind[0]!)?.status).toBe("queued");
    // The switched run completing says nothing of the limited provider: its runs stay held.
    const { providerTurnId } = s.start(other);
    s.finish(providerTurnId);
    expect(s.state.thread?.usageLimit?.resumedAt).toBeNull();
    expect(nextQueuedRun(s.state)).toBeUndefined();
  });

  it("a failure without the limit records none", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    const { providerTurnId } = s.start(runId);
    s.finish(providerTurnId, "failed");
    expect(s.state.thread?.usageLimit).toBeUndefined();
  });

  it("FailRun at a usage limit (a refused turn) records it too", () => {
    const s = new ThreadScenario().create();
    const runId = s.queue();
    s.start(runId, undefined, false);
    const events = s.exec({
      type: "FailRun",
      data: { threadId: s.threadId, runId, error: "429", usageLimit: { retryAfterMs: 1_000 } },
    });
    expect(events.map((e) => e.type)).toEqual(["RunFinished", "UsageLimitReached"]);
  });
});

describe("issue 32: ResumeAfterUsageLimit", () => {
  it("queues the run again ahead of the messages the limit held, and counts the resume", () => {
    const { s, runId, behind } = limited(60_000, 2);
    const { after } = given(s.events)
      .when(resume(s, runId))
      .then([
        { type: "UsageLimitResumed", data: { runId } },
        { type: "RunRetryQueued", data: { runId } },
      ]);
    if (after.kind !== "thread") throw new Error("not a thread");
    expect([...after.queuedRunIds]).toEqual([runId, ...behind]);
    expect(after.runs.get(runId)).toMatchObject({ status: "queued", error: null });
    expect(after.thread?.usageLimit).toMatchObject({ automaticResumes: 1 });
    expect(after.thread?.usageLimit?.resumedAt).not.toBeNull();
  });

  it("is refused a second time (another instance, a restart): PRECONDITION_FAILED, nothing changes", () => {
    const { s, runId } = limited(60_000);
    s.exec(resume(s, runId));
    given(s.events)
      .when(resume(s, runId))
      .thenFails("precondition_failed", /no usage limit/);
  });

  it("is refused once the person retried the run themselves", () => {
    const { s, runId } = limited(60_000, 1);
    s.exec({ type: "RetryRun", data: { threadId: s.threadId, runId } });
    expect(s.state.thread?.usageLimit?.automaticResumes).toBe(0);
    given(s.events).when(resume(s, runId)).thenFails("precondition_failed");
  });

  it("a completed run ends the limit and its count of resumes in a row", () => {
    const { s, runId } = limited(60_000);
    s.exec(resume(s, runId));
    const again = s.start(runId);
    s.finish(again.providerTurnId);
    expect(s.state.thread?.usageLimit).toBeNull();
  });

  it("a limit reached again after a resume keeps counting the resumes in a row", () => {
    const { s, runId } = limited(60_000);
    s.exec(resume(s, runId));
    const again = s.start(runId);
    s.exec({
      type: "CompleteProviderTurn",
      data: {
        threadId: s.threadId,
        providerTurnId: again.providerTurnId,
        status: "failed",
        error: "429",
        usageLimit: {},
      },
    });
    expect(s.state.thread?.usageLimit).toMatchObject({
      runId,
      resetsAt: null,
      resumedAt: null,
      automaticResumes: 1,
    });
  });
});

describe("issue 32: usageLimitPlan", () => {
  const limit: ThreadUsageLimit = {
    runId: "run_x" as RunId,
    provider: "codex",
    resetsAt: "2026-01-01T10:30:00.000Z",
    reachedAt: "2026-01-01T10:00:00.000Z",
    resumedAt: null,
    automaticResumes: 0,
  };

  it("waits (the default) until the reset the provider named", () => {
    expect(usageLimitPlan({ usageLimit: limit })).toEqual({
      kind: "resume",
      at: "2026-01-01T10:30:00.000Z",
    });
  });

  it("without a named reset, waits the bounded default from when the limit was reached", () => {
    expect(usageLimitPlan({ usageLimit: { ...limit, resetsAt: null } })).toEqual({
      kind: "resume",
      at: "2026-01-01T10:15:00.000Z",
    });
    expect(
      usageLimitPlan({ usageLimit: { ...limit, resetsAt: null } }, { defaultWaitMs: 60_000 }),
    ).toEqual({ kind: "resume", at: "2026-01-01T10:01:00.000Z" });
  });

  it("holds with `stop` or `switch`, and after the resumes in a row are used up", () => {
    expect(usageLimitPlan({ onUsageLimit: "stop", usageLimit: limit })).toEqual({
      kind: "held",
      why: "stop",
    });
    expect(usageLimitPlan({ onUsageLimit: "switch", usageLimit: limit })).toEqual({
      kind: "held",
      why: "switch",
    });
    expect(usageLimitPlan({ usageLimit: { ...limit, automaticResumes: 3 } })).toEqual({
      kind: "held",
      why: "resumed_enough",
    });
  });

  it("says none once the limit was resumed, or without one", () => {
    expect(usageLimitPlan({ usageLimit: { ...limit, resumedAt: limit.resetsAt } })).toEqual({
      kind: "none",
    });
    expect(usageLimitPlan({})).toEqual({ kind: "none" });
  });
});
