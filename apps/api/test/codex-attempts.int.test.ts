import { type ModelFault, responsesSlowTextReply, responsesTextReply } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { attemptsShown } from "./support/attempts-shown.ts";
import { type CodexSkeinHarness, createCodexSkeinHarness } from "./support/codex-skein-harness.ts";

let h: CodexSkeinHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe("B2: a hung model (real Codex app-server)", () => {
  it("B2: a stream silent past the idle timeout stops the turn and a retry attempt of the same run completes", async () => {
    const x = await createCodexSkeinHarness({
      attempts: { idleTimeoutMs: 1_500, baseDelayMs: 50 },
    });
    h = x;
    x.server.enqueue(
      // Starts answering, then goes silent for a minute.
      responsesSlowTextReply(["thinking ", "about ", "it"], 60_000),
      responsesTextReply("AWAKE-AGAIN"),
    );
    const threadId = await x.createThread();
    const { runId, run } = await x.run(threadId, "are you there?");
    expect(run.status).toBe("completed");
    const state = await x.thread(threadId);
    const attempts = [...state.attempts.values()]
      .filter((a) => a.runId === runId)
      .sort((a, b) => a.attemptOrdinal - b.attemptOrdinal);
    expect(attempts.map((a) => [a.reason, a.status])).toEqual([
      ["initial", "superseded"],
      ["retry", "completed"],
    ]);
    const silentTurn = state.providerTurns.get(attempts[0]!.providerTurnId!);
    expect(silentTurn?.error).toMatch(/idle timeout/);
    const answers = [...state.turnItems.values()]
      .map((e) => e.item)
      .filter((i) => i.type === "assistant_message" && i.runId === runId);
    expect(answers.at(-1)).toMatchObject({ text: "AWAKE-AGAIN" });
  }, 60_000);

  it("B2: a model that stays silent fails the run with the idle timeout once the attempts are used up", async () => {
    const x = await createCodexSkeinHarness({
      attempts: { idleTimeoutMs: 1_000, baseDelayMs: 50, maxRetries: 1 },
    });
    h = x;
    const hang = responsesSlowTextReply(["thinking ", "about ", "it"], 60_000);
    x.server.enqueue(hang, hang);
    const threadId = await x.createThread();
    const { run } = await x.run(threadId, "are you there?");
    expect(run.status).toBe("failed");
    expect(run.error).toMatch(
      /^The Codex turn failed: no output from the provider for 1 s \(idle timeout\) \(attempt 2\)\. Check that the server can reach Codex.s model service/,
    );
    const { runId, run: next } = await x.run(threadId, "and now?");
    expect(next.status).toBe("completed");
    expect(runId).toBeTruthy();
  }, 60_000);
});

// The test CODEX_HOME sets `request_max_retries = 0` and `stream_max_retries = 0`, so Codex never
// retries a model request itself: every second request below is Skein's new attempt.
const MODEL_FAULTS: { name: string; fault: ModelFault; cut: boolean; cause: RegExp }[] = [
  {
    name: "a model HTTP 500",
    fault: { kind: "status", status: 500 },
    cut: false,
    cause: /500|high demand/i,
  },
  {
    name: "a 529 overloaded",
    fault: { kind: "status", status: 529 },
    cut: false,
    cause: /529|overloaded/i,
  },
  {
    name: "a stream cut mid-SSE",
    fault: { kind: "cut_stream", afterBytes: 300 },
    cut: true,
    cause: /stream|disconnect|closed/i,
  },
];

describe("B2/E4: a failed model request gets a new attempt (real Codex app-server)", () => {
  it.each(MODEL_FAULTS)(
    "B2/E4: $name starts a retry attempt of the same run, shown in thread.detail and thread.graph",
    async ({ fault, cut, cause }) => {
      const x = await createCodexSkeinHarness({ attempts: { baseDelayMs: 50 }, faultProxy: true });
      h = x;
      x.faults!.inject(fault);
      // A cut stream is a real reply cut short; a status fault never reaches the fake server.
      if (cut) x.server.enqueue(responsesTextReply("this answer is cut short ".repeat(20)));
      x.server.enqueue(responsesTextReply("SECOND-TRY"));
      const threadId = await x.createThread();
      const { runId, run } = await x.run(threadId, "hello");
      expect(run.status).toBe("completed");
      expect(x.faults!.applied).toHaveLength(1);
      expect(x.server.requests).toHaveLength(cut ? 2 : 1);
      const shown = await attemptsShown(x.store, threadId, runId);
      expect(shown.detail).toEqual([
        ["initial", "superseded"],
        ["retry", "completed"],
      ]);
      expect(shown.graph).toEqual([
        { reason: "initial", status: "superseded", error: expect.stringMatching(cause) },
        { reason: "retry", status: "completed", error: null },
      ]);
      // The first attempt's cause is its own, not labelled with the attempt it handed over to.
      expect(shown.graph[0]!.error).not.toMatch(/\(attempt \d+\)/);
      const answers = [...(await x.thread(threadId)).turnItems.values()]
        .map((e) => e.item)
        .filter((i) => i.type === "assistant_message" && i.runId === runId);
      expect(answers.at(-1)).toMatchObject({ text: "SECOND-TRY" });
    },
    30_000,
  );
});
