import { type RunId, type ThreadId, threadStreamId } from "@skein/domain";
import { anthropicTextReply, type ModelFault, responsesTextReply } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { attemptsShown } from "./support/attempts-shown.ts";
import {
  CLAUDE_NO_CLI_RETRY,
  type ClaudeSkeinHarness,
  createClaudeSkeinHarness,
} from "./support/claude-skein-harness.ts";
import { usePerTest } from "./support/cleanups.ts";
import { createCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import { eventually } from "./support/orchestrator-harness.ts";
import { TestWaitClock } from "./support/test-wait-clock.ts";

const open = usePerTest(createClaudeSkeinHarness);
const openCodex = usePerTest(createCodexSkeinHarness);

/** Skein's own retries wait at most 5 s; the 429 below asks for two minutes. */
const ATTEMPTS = { baseDelayMs: 50, maxRetryAfterMs: 5_000, idleTimeoutMs: 20_000 };

/** The fake model's usage limit: a 429 whose `retry-after` names the reset, 120 s away. */
const USAGE_LIMIT: ModelFault = {
  kind: "status",
  status: 429,
  headers: { "x-should-retry": "false", "retry-after": "120" },
  body: {
    type: "error",
    error: {
      type: "rate_limit_error",
      code: "rate_limit_exceeded",
      message: "Usage limit reached. Please try again in 120s.",
    },
  },
};

async function limitedThread(clock: TestWaitClock, codex?: "scripted") {
  const x = await open({
    attempts: ATTEMPTS,
    faultProxy: true,
    claudeEnv: CLAUDE_NO_CLI_RETRY,
    usageLimits: { clock },
    ...(codex ? { codex } : {}),
  });
  x.faults!.inject(USAGE_LIMIT);
  const threadId = await x.createThread();
  const { runId } = await x.orchestrator.sendMessage({ threadId, text: "hello" });
  await x.orchestrator.waitForRun(runId);
  const state = await x.thread(threadId);
  expect(state.runs.get(runId)?.status).toBe("failed");
  const limit = state.thread?.usageLimit;
  if (!limit?.resetsAt) throw new Error("no usage limit with a reset was recorded");
  return { x, threadId, runId, limit, resetsAt: limit.resetsAt };
}

async function runStatus(x: ClaudeSkeinHarness, threadId: ThreadId, runId: RunId) {
  return (await x.thread(threadId)).runs.get(runId)?.status;
}

async function resumesRecorded(x: ClaudeSkeinHarness, threadId: ThreadId): Promise<number> {
  const events = await x.store.readStream(threadStreamId(threadId), 0);
  return events.filter((e) => e.type === "UsageLimitResumed").length;
}

describe("issue 32: a usage limit on the real Claude runtime does not stop the work", () => {
  it("B20: waits for the reset the 429 named and resumes the run by itself; the held message follows", async () => {
    const clock = new TestWaitClock();
    const { x, threadId, runId, limit, resetsAt } = await limitedThread(clock);
    expect(limit).toMatchObject({
      runId,
      provider: "claude",
      resumedAt: null,
      automaticResumes: 0,
    });
    expect(Date.parse(resetsAt) - Date.parse(limit.reachedAt)).toBe(120_000);
    expect((await x.thread(threadId)).runs.get(runId)?.error).toMatch(/429|usage limit/i);

    // A message sent meanwhile waits with the limit: queued, not failed, not sent.
    const next = await x.orchestrator.sendMessage({ threadId, text: "and then" });
    await eventually(() =>
      expect(x.orchestrator.usageLimits.dueTimes().get(threadId)).toBe(resetsAt),
    );
    expect(await runStatus(x, threadId, next.runId)).toBe("queued");

    x.anthropic.enqueue(anthropicTextReply("AFTER-THE-RESET"));
    x.anthropic.enqueue(anthropicTextReply("THE-HELD-ONE"));
    clock.advanceTo(new Date(Date.parse(resetsAt) - 1_000));
    expect(clock.pending()).toBe(1);
    expect(await runStatus(x, threadId, runId)).toBe("failed");

    clock.advanceTo(resetsAt);
    await eventually(async () => expect(await runStatus(x, threadId, runId)).toBe("completed"));
    await x.orchestrator.waitForRun(next.runId);
    expect(await runStatus(x, threadId, next.runId)).toBe("completed");
    const shown = await attemptsShown(x.store, threadId, runId);
    expect(shown.graph.map((a) => [a.reason, a.status])).toEqual([
      ["initial", "failed"],
      ["retry", "completed"],
    ]);
    expect((await x.thread(threadId)).thread?.usageLimit).toBeNull();
    expect(await resumesRecorded(x, threadId)).toBe(1);
  }, 90_000);

  it("B20: a restart while waiting still resumes at the reset, once", async () => {
    const clock = new TestWaitClock();
    const { x, threadId, runId, resetsAt } = await limitedThread(clock);
    await eventually(() =>
      expect(x.orchestrator.usageLimits.dueTimes().get(threadId)).toBe(resetsAt),
    );
    const restarted = await x.restart();
    // The stopped instance's wait is gone; the new one planned the same resume from the store.
    expect(restarted.usageLimits.dueTimes().get(threadId)).toBe(resetsAt);
    expect(clock.pending()).toBe(1);
    x.anthropic.enqueue(anthropicTextReply("AFTER-THE-RESTART"));
    clock.advanceTo(resetsAt);
    await eventually(async () => expect(await runStatus(x, threadId, runId)).toBe("completed"));
    clock.advanceTo(new Date(Date.parse(resetsAt) + 3_600_000));
    expect(clock.pending()).toBe(0);
    expect(await resumesRecorded(x, threadId)).toBe(1);
  }, 90_000);

  it("with the setting `stop` the run is not resumed; back to `wait`, it is planned again", async () => {
    const clock = new TestWaitClock();
    const { x, threadId, runId, resetsAt } = await limitedThread(clock);
    await eventually(() => expect(clock.pending()).toBe(1));
    await x.orchestrator.updateSettings({ threadId, onUsageLimit: "stop" });
    await eventually(() => expect(x.orchestrator.usageLimits.dueTimes().size).toBe(0));
    expect(clock.pending()).toBe(0);
    clock.advanceTo(new Date(Date.parse(resetsAt) + 3_600_000));
    expect(await runStatus(x, threadId, runId)).toBe("failed");
    expect(await resumesRecorded(x, threadId)).toBe(0);

    // Back to waiting: the reset has passed, so the run resumes at once.
    x.anthropic.enqueue(anthropicTextReply("RESUMED-LATER"));
    await x.orchestrator.updateSettings({ threadId, onUsageLimit: "wait" });
    await eventually(async () => expect(await runStatus(x, threadId, runId)).toBe("completed"));
    expect(await resumesRecorded(x, threadId)).toBe(1);
  }, 90_000);
});

describe("issue 32: the `switch` setting", () => {
  it("B20: nothing resumes; a message switched to another provider runs with a handoff while the limited provider's message waits", async () => {
    const clock = new TestWaitClock();
    const { x, threadId, runId } = await limitedThread(clock, "scripted");
    await x.orchestrator.updateSettings({ threadId, onUsageLimit: "switch" });
    await eventually(() => expect(x.orchestrator.usageLimits.dueTimes().size).toBe(0));
    const held = await x.orchestrator.sendMessage({ threadId, text: "still for Claude" });
    x.scriptedCodex!.enqueue([{ type: "text", text: "CODEX-TOOK-OVER" }]);
    const switched = await x.orchestrator.sendMessage({
      threadId,
      text: "go on",
      provider: "codex",
    });
    await x.orchestrator.waitForRun(switched.runId);
    const state = await x.thread(threadId);
    expect(state.runs.get(switched.runId)?.status).toBe("completed");
    const handoffs = [...state.transfers.values()].filter((t) => t.targetRunId === switched.runId);
    expect(handoffs.map((t) => [t.sourceProvider, t.targetProvider])).toEqual([
      ["claude", "codex"],
    ]);
    expect(state.runs.get(runId)?.status).toBe("failed");
    expect(state.runs.get(held.runId)?.status).toBe("queued");
    expect(state.thread?.usageLimit).toMatchObject({ runId, resumedAt: null });
    expect(clock.pending()).toBe(0);
  }, 90_000);
});

describe("issue 32: a usage limit on the real Codex runtime, which names no reset", () => {
  it("B20: waits the bounded default from when the limit was reached, then resumes by itself", async () => {
    const clock = new TestWaitClock();
    const x = await openCodex({
      // No retry of Skein's own: the first 429 is the usage limit.
      attempts: { ...ATTEMPTS, maxRetries: 0 },
      faultProxy: true,
      usageLimits: { clock, defaultWaitMs: 60_000 },
    });
    x.faults!.inject(USAGE_LIMIT);
    const threadId = await x.createThread();
    const { runId, run } = await x.run(threadId, "hello");
    expect(run.status).toBe("failed");
    const limit = (await x.thread(threadId)).thread?.usageLimit;
    expect(limit).toMatchObject({ runId, provider: "codex", resetsAt: null, resumedAt: null });
    const due = new Date(Date.parse(limit!.reachedAt) + 60_000).toISOString();
    await eventually(() => expect(x.orchestrator.usageLimits.dueTimes().get(threadId)).toBe(due));

    x.server.enqueue(responsesTextReply("AFTER-THE-DEFAULT-WAIT"));
    clock.advanceTo(due);
    const resumed = await x.waitForRunStatus(threadId, runId, ["completed"], 60_000);
    expect(resumed.status).toBe("completed");
    expect(x.faults!.applied).toHaveLength(1);
  }, 90_000);

  it("a limit that comes back after the resumes in a row are used up is left to the person", async () => {
    const clock = new TestWaitClock();
    const x = await openCodex({
      attempts: { ...ATTEMPTS, maxRetries: 0 },
      faultProxy: true,
      usageLimits: { clock, defaultWaitMs: 60_000, maxResumes: 1 },
    });
    x.faults!.inject(USAGE_LIMIT, USAGE_LIMIT);
    const threadId = await x.createThread();
    const { runId } = await x.run(threadId, "hello");
    const first = (await x.thread(threadId)).thread!.usageLimit!;
    await eventually(() => expect(clock.pending()).toBe(1));
    clock.advanceTo(new Date(Date.parse(first.reachedAt) + 60_000));
    // The resumed run meets the limit again: it fails, and no further resume is planned.
    await eventually(async () => {
      const limit = (await x.thread(threadId)).thread?.usageLimit;
      expect(limit).toMatchObject({ runId, automaticResumes: 1, resumedAt: null });
    }, 60_000);
    expect((await x.thread(threadId)).runs.get(runId)?.status).toBe("failed");
    await x.orchestrator.usageLimits.consider(threadId);
    expect(x.orchestrator.usageLimits.dueTimes().size).toBe(0);
    expect(clock.pending()).toBe(0);
    expect(x.faults!.applied).toHaveLength(2);
  }, 90_000);
});
