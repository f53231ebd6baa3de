import { describe, expect, it } from "vitest";
import { buildHandoff } from "../build-handoff.ts";
import { answerHistory, parseHistoryCall } from "../history/index.ts";
import { generateThread } from "./generate.ts";
import { SCRIPTED_HISTORY_CALLS, scoreFidelity } from "./score.ts";
import { toTransferInputs } from "./to-inputs.ts";

function handoff(length: number, seed: number) {
  const generated = generateThread(length, seed);
  const inputs = toTransferInputs(generated, {
    threadId: "thr_f",
    provider: "codex",
    providerThreadId: "pth_f",
  });
  const selection = [{ threadId: "thr_f", ordinals: inputs.runs.map((r) => r.ordinal) }];
  const build = buildHandoff({
    strategy: "full_thread_summary",
    transfer: {
      id: "ctx_f",
      type: "provider_handoff",
      sourceThreadId: "thr_f",
      targetThreadId: "thr_f",
    },
    selection,
    ...inputs,
    targetProvider: "claude",
    newMessage: "Carry on.",
    historyTool: true,
  });
  const answers = SCRIPTED_HISTORY_CALLS.map((call) =>
    answerHistory(parseHistoryCall(call), { selection, ...inputs }),
  );
  return { generated, build, answers };
}

describe("B13: handoff fidelity on generated threads", () => {
  it("B13: the generator is deterministic per seed and plants every kind", () => {
    expect(generateThread(40, 3)).toEqual(generateThread(40, 3));
    expect(generateThread(40, 3)).not.toEqual(generateThread(40, 4));
    const kinds = new Set(generateThread(40, 3).facts.map((f) => f.kind));
    expect([...kinds].sort()).toEqual([
      "constraint",
      "decision",
      "error",
      "file",
      "goal",
      "preference",
      "task",
    ]);
    expect(generateThread(40, 3).facts.some((f) => !f.current)).toBe(true);
  });

  for (const length of [40, 400]) {
    it(`B13: a ${length}-run thread: recall ≥ 0.95 and no superseded leak, within the budget`, () => {
      const { generated, build, answers } = handoff(length, 11);
      const score = scoreFidelity(generated.facts, build.promptText, answers);
      expect(score.missed).toEqual([]);
      expect(score.recall).toBeGreaterThanOrEqual(0.95);
      expect(score.leaked).toEqual([]);
      expect(build.tokens.summary).toBeLessThanOrEqual(build.tokens.budget);
    });
  }

  it("B13: the scorer counts a superseded fact in a current section as a leak", () => {
    const { generated, build } = handoff(40, 11);
    const reversed = generated.facts.find((f) => !f.current && f.kind === "decision")!;
    const planted = build.promptText.replace(
      "## Decisions in force\n",
      `## Decisions in force\n- use ${reversed.needle}\n`,
    );
    expect(scoreFidelity(generated.facts, planted).leaked).toEqual([reversed]);
    const withoutGoal = build.promptText.replaceAll(
      generated.facts.find((f) => f.kind === "goal")!.needle,
      "?",
    );
    expect(scoreFidelity(generated.facts, withoutGoal).recall).toBeLessThan(1);
  });
});
