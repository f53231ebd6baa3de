import { type ThreadId, type ThreadState, threadStreamId } from "@skein/domain";
import {
  anthropicAssistantTexts,
  anthropicErrorReply,
  anthropicSlowTextReply,
  anthropicTextReply,
  anthropicUserTexts,
  type ModelFault,
} from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { attemptsShown } from "./support/attempts-shown.ts";
import {
  CLAUDE_NO_CLI_RETRY,
  type ClaudeSkeinHarness,
  createClaudeSkeinHarness,
  eventually,
} from "./support/claude-skein-harness.ts";

let h: ClaudeSkeinHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

function attemptsOf(state: ThreadState, runId: string) {
  return [...state.attempts.values()]
    .filter((a) => a.runId === runId)
    .sort((a, b) => a.attemptOrdinal - b.attemptOrdinal)
    .map((a) => [a.reason, a.status]);
}

function lastAnswer(state: ThreadState, runId: string) {
  const answers = [...state.turnItems.values()]
    .map((e) => e.item)
    .filter((i) => i.type === "assistant_message" && i.runId === runId);
  return answers.at(-1);
}

describe("B2: new attempts of a run after a provider failure (real Claude Agent SDK)", () => {
  it("B2: a model HTTP 500 gets a retry attempt of the same run, which completes with the next answer", async () => {
    const x = await createClaudeSkeinHarness({ attempts: { baseDelayMs: 50 } });
    h = x;
    x.anthropic.enqueue(
      anthropicErrorReply(500, "model on fire", { shouldRetry: false }),
      anthropicTextReply("fine on the second try"),
    );
    const threadId: ThreadId = await x.createThread();
    const { runId, state } = await x.send(threadId, "first");
    expect(state.runs.get(runId)?.status).toBe("completed");
    expect(attemptsOf(state, runId)).toEqual([
      ["initial", "superseded"],
      ["retry", "completed"],
    ]);
    expect(lastAnswer(state, runId)).toMatchObject({ text: "fine on the second try" });
  });

  it("B2: a model that keeps failing ends the run failed with the cause after the attempt limit", async () => {
    const x = await createClaudeSkeinHarness({ attempts: { baseDelayMs: 50, maxRetries: 1 } });
    h = x;
    const fire = anthropicErrorReply(500, "model on fire", { shouldRetry: false });
    x.anthropic.enqueue(fire, fire);
    const threadId: ThreadId = await x.createThread();
    const { runId, state } = await x.send(threadId, "first");
    const run = state.runs.get(runId)!;
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(/^The Claude Code turn failed: .*model on fire.*\(attempt 2\)\./);
    expect(attemptsOf(state, runId).map(([reason]) => reason)).toEqual(["initial", "retry"]);
  });

  it("B2: a killed claude process mid-turn gets a provider_recovery attempt that resumes the session with its history", async () => {
    const x = await createClaudeSkeinHarness({ attempts: { baseDelayMs: 50 } });
    h = x;
    x.anthropic.enqueue(
      anthropicTextReply("A1"),
      anthropicSlowTextReply("y".repeat(600), 20),
      anthropicTextReply("recovered"),
    );
    const threadId: ThreadId = await x.createThread();
    await x.send(threadId, "first");
    const after = await x.store.headSequence();
    const { runId } = await x.orchestrator.sendMessage({ threadId, text: "to be killed" });
    await eventually(async () => {
      const events = await x.store.readStream(threadStreamId(threadId), after);
      expect(events.some((e) => e.type === "ItemDeltaAppended")).toBe(true);
    });
    const providerThread = [...(await x.thread(threadId)).providerThreads.values()][0]!;
    const child = x.claudeSessions[0]?.liveProcess(providerThread.nativeThreadRef ?? "");
    expect(child?.kill("SIGKILL")).toBe(true);
    await x.orchestrator.waitForRun(runId);
    const state = await x.thread(threadId);
    expect(state.runs.get(runId)?.status).toBe("completed");
    expect(attemptsOf(state, runId)).toEqual([
      ["initial", "superseded"],
      [expect.stringMatching(/^(provider_recovery|retry)$/), "completed"],
    ]);
    expect(lastAnswer(state, runId)).toMatchObject({ text: "recovered" });
    const request = x.claudeRequests().at(-1)!;
    expect(anthropicUserTexts(request).map((t) => t.trim())[0]).toBe("first");
    expect(anthropicAssistantTexts(request)[0]).toBe("A1");
  });
});

// Claude Code retries a 5xx by itself unless the answer says not to (`x-should-retry: false`), and
// a cut stream by itself unless told not to (CLAUDE_NO_CLI_RETRY): both are off, so every new
// conversation request below is Skein's new attempt, not the CLI's own retry.
const NO_RETRY = { "x-should-retry": "false" };
const MODEL_FAULTS: { name: string; fault: ModelFault; cut: boolean; cause: RegExp }[] = [
  {
    name: "a stream silent past the idle timeout",
    fault: { kind: "hang" },
    cut: false,
    cause: /idle timeout/,
  },
  {
    name: "a 529 overloaded",
    fault: { kind: "status", status: 529, headers: NO_RETRY },
    cut: false,
    cause: /529|overloaded/i,
  },
  {
    name: "a stream cut mid-SSE",
    fault: { kind: "cut_stream", afterBytes: 400 },
    cut: true,
    cause: /ECONNRESET|connection/i,
  },
];

describe("B2/E4: a failed model request gets a new attempt (real Claude Agent SDK)", () => {
  it.each(MODEL_FAULTS)(
    "B2/E4: $name starts a retry attempt of the same run, shown in thread.detail and thread.graph",
    async ({ fault, cut, cause }) => {
      const x = await createClaudeSkeinHarness({
        attempts: { baseDelayMs: 50, idleTimeoutMs: 1_500 },
        faultProxy: true,
        claudeEnv: CLAUDE_NO_CLI_RETRY,
      });
      h = x;
      x.faults!.inject(fault);
      if (cut) x.anthropic.enqueue(anthropicTextReply("this answer is cut short ".repeat(20)));
      x.anthropic.enqueue(anthropicTextReply("SECOND-TRY"));
      const threadId: ThreadId = await x.createThread();
      const { runId, state } = await x.send(threadId, "hello");
      const shown = await attemptsShown(x.store, threadId, runId);
      expect(state.runs.get(runId)?.status).toBe("completed");
      expect(x.faults!.applied).toHaveLength(1);
      // Only a cut stream reaches the fake server; the retry's request carries the same prompt.
      expect(x.claudeRequests()).toHaveLength(cut ? 2 : 1);
      expect(anthropicUserTexts(x.claudeRequests().at(-1)!).map((t) => t.trim())).toContain(
        "hello",
      );
      expect(shown.detail).toEqual([
        ["initial", "superseded"],
        ["retry", "completed"],
      ]);
      expect(shown.graph).toEqual([
        { reason: "initial", status: "superseded", error: expect.stringMatching(cause) },
        { reason: "retry", status: "completed", error: null },
      ]);
      expect(lastAnswer(state, runId)).toMatchObject({ text: "SECOND-TRY" });
    },
    30_000,
  );
});
