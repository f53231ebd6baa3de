import { responsesSlowTextReply, responsesTextReply } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
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
      /^The Codex turn failed: no output from the provider for 1 s \(idle timeout\) \(attempt 2\)\. The model service did not answer properly/,
    );
    const { runId, run: next } = await x.run(threadId, "and now?");
    expect(next.status).toBe("completed");
    expect(runId).toBeTruthy();
  }, 60_000);
});
