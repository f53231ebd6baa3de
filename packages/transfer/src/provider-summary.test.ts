import { describe, expect, it } from "vitest";
import { buildHandoff } from "./build-handoff.ts";
import {
  checkProviderSummary,
  providerSummaryPrompt,
  providerSummaryText,
} from "./provider-summary.ts";
import { runs, turnItemsFor } from "./test-support/fixtures.ts";

const thread = runs({ from: 1, to: 3, provider: "codex", providerThreadId: "pth_A" });
const build = buildHandoff({
  strategy: "full_thread_summary",
  transfer: { id: "ctx_p", type: "fork", sourceThreadId: "thr_main", targetThreadId: "thr_f" },
  selection: [{ threadId: "thr_main", ordinals: [1, 2, 3] }],
  runs: thread,
  turnItems: turnItemsFor(thread),
  targetProvider: "claude",
  historyTool: true,
  budget: { maxTokens: 600 },
});
const good =
  "## Goal\nship it (run 1)\n## Decisions in force\n- none\n## Open tasks\n- tests (run 3)";

describe("B13: provider-written summaries are checked before they stand as the handoff", () => {
  it("B13: the prompt names the runs, the sections and the budget, and no internal ids", () => {
    const prompt = providerSummaryPrompt(build);
    expect(prompt).toContain("(runs 1–3) for claude");
    expect(prompt).toContain("## No longer current");
    expect(prompt).toContain("Stay under 450 tokens");
    expect(prompt).not.toMatch(/thr_|ctx_|pth_/);
  });

  it("B13: an empty, over-budget or unstructured answer is refused with the reason", () => {
    expect(checkProviderSummary("  ", build)).toEqual({
      ok: false,
      reason: "the provider wrote nothing",
    });
    expect(checkProviderSummary(`${good}\n${"x".repeat(4_000)}`, build)).toEqual({
      ok: false,
      reason: "the provider's summary is 1021 tokens, over the 600-token budget",
    });
    expect(checkProviderSummary("Sure! Here is a summary.", build)).toEqual({
      ok: false,
      reason: "the provider's summary lacks ## Goal, ## Decisions in force, ## Open tasks",
    });
    expect(checkProviderSummary(`\n${good}\n`, build)).toEqual({ ok: true, text: good });
  });

  it("B13: the text says who wrote it and that the history tool exists", () => {
    const text = providerSummaryText(good, "codex", build);
    expect(text).toMatch(/^# Context handoff\nWritten by codex from its own thread \(runs 1–3\)/);
    expect(text).toContain("skein_history");
    expect(text.endsWith(good)).toBe(true);
  });

  it("E3: after a compaction run the prompt and the text count the thread's turns, not its runs", () => {
    // Run 2 was a compaction: the person reads Run 1, Compaction, Run 2.
    const numbering = { asideRuns: new Map([["thr_main", [{ from: 2, to: 2 }]]]) };
    expect(providerSummaryPrompt(build, numbering)).toContain("(runs 1–2) for claude");
    expect(providerSummaryText(good, "codex", build, numbering)).toMatch(
      /^# Context handoff\nWritten by codex from its own thread \(runs 1–2\)/,
    );
  });
});
