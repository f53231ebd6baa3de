import { describe, expect, it } from "vitest";
import { estimateTokens } from "../token-budget.ts";
import { generateThread, toTransferInputs } from "../fidelity/index.ts";
import { answerHistory, HISTORY_ANSWER_TOKENS } from "./answer-history.ts";
import { HistoryCallError, parseHistoryCall } from "./history-call.ts";

const generated = generateThread(400, 7);
const inputs = toTransferInputs(generated, {
  threadId: "thr_h",
  provider: "codex",
  providerThreadId: "pth_h",
});
/** The handoff covers runs 1–300 only. */
const coverage = {
  ...inputs,
  selection: [{ threadId: "thr_h", ordinals: Array.from({ length: 300 }, (_, i) => i + 1) }],
};
const ask = (input: unknown) => answerHistory(parseHistoryCall(input), coverage);

describe("B13: skein_history over the covered runs", () => {
  it("B13: search finds a statement from the middle of the history, cited by run", () => {
    const fact = generated.facts.find((f) => f.kind === "decision" && f.run > 20 && f.run <= 300)!;
    const answer = ask({ op: "search", query: fact.needle });
    expect(answer).toMatch(new RegExp(`run ${fact.run} · the person: .*${fact.needle}`));
    expect(estimateTokens(answer)).toBeLessThanOrEqual(HISTORY_ANSWER_TOKENS);
  });

  it("B13: read returns one covered run; a run outside the coverage is a tool error", () => {
    expect(ask({ op: "read", run: 12 })).toMatch(/^run 12 · codex · completed\n\[the person\] /);
    expect(() => ask({ op: "read", run: 301 })).toThrow(
      new HistoryCallError("run 301 is not covered by this handoff (covered: runs 1–300)"),
    );
  });

  it("B13: files lists each changed file once with its latest diff", () => {
    const file = generated.facts.filter((f) => f.kind === "file");
    const answer = ask({ op: "files" });
    const latestCovered = file.filter((f) => answer.includes(`"${f.needle}";`));
    expect(latestCovered.length).toBeGreaterThan(0);
    expect(answer.match(/^- src\/config\//gm)).toHaveLength(1);
  });

  it("B13: every answer stays within its token bound, however broad the query", () => {
    const answer = ask({ op: "search", query: "the a run tests module" });
    expect(estimateTokens(answer)).toBeLessThanOrEqual(HISTORY_ANSWER_TOKENS);
    expect(answer).toMatch(/more matches left out/);
  });

  it("B13: bad arguments are refused with what the tool takes", () => {
    for (const bad of [
      null,
      "not json",
      [],
      {},
      { op: "delete" },
      { op: "search" },
      { op: "search", query: "   " },
      { op: "search", query: "x".repeat(501) },
      { op: "read" },
      { op: "read", run: 0 },
      { op: "read", run: 1.5 },
      { op: "files", path: "/etc/passwd" },
    ]) {
      expect(() => parseHistoryCall(bad), JSON.stringify(bad)).toThrow(HistoryCallError);
    }
    expect(parseHistoryCall('{"op":"read","run":"4"}')).toEqual({ op: "read", run: 4 });
  });
});
