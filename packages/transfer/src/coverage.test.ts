import { describe, expect, it } from "vitest";
import { describeCoverage, isCaughtUp } from "./coverage.ts";
import type { ContextHandoff } from "./inputs.ts";
import { countedRunsOf } from "./run-history.ts";
import { providerThread, runs } from "./test-support/fixtures.ts";

// Runs 1–5 on Codex thread A, 6–8 on Claude thread B, 9 back on A (E9's example).
const history = countedRunsOf(
  runs(
    { from: 1, to: 5, provider: "codex", providerThreadId: "pth_A" },
    { from: 6, to: 8, provider: "claude", providerThreadId: "pth_B" },
    { from: 9, to: 9, provider: "codex", providerThreadId: "pth_A" },
  ),
  "thr_main",
);
const handoff = (id: string, to: string, from: number, until: number): ContextHandoff => ({
  id,
  toProviderThreadId: to,
  coveredRunOrdinals: { from, to: until },
  status: "ready",
});

describe("provider thread coverage", () => {
  it("E9: a provider thread's coverage has native ranges and bridged gaps", () => {
    const a = providerThread("pth_A", "codex", 1, 9, { handoffIds: ["hnd_1"] });
    const coverage = describeCoverage(a, history, [handoff("hnd_1", "pth_A", 6, 8)]);
    expect(coverage.native).toEqual([
      { from: 1, to: 5 },
      { from: 9, to: 9 },
    ]);
    expect(coverage.bridged).toEqual([{ from: 6, to: 8 }]);
    expect(coverage.unbridged).toEqual([]);
    expect(coverage.missed).toEqual([]);
    expect(isCaughtUp(coverage)).toBe(true);
  });

  it("counts the runs after lastRunOrdinal as missed", () => {
    const a = providerThread("pth_A", "codex", 1, 5);
    const beforeReturn = history.filter((run) => run.ordinal <= 8);
    const coverage = describeCoverage(a, beforeReturn);
    expect(coverage.lastSeenOrdinal).toBe(5);
    expect(coverage.missedOrdinals).toEqual([6, 7, 8]);
    expect(isCaughtUp(coverage)).toBe(false);
  });

  it("treats runs before a seeded thread's first run as a gap its seed handoff bridges", () => {
    const b = providerThread("pth_B", "claude", 6, 8, { handoffIds: ["hnd_seed"] });
    const coverage = describeCoverage(b, history, [handoff("hnd_seed", "pth_B", 1, 5)]);
    expect(coverage.bridged).toEqual([{ from: 1, to: 5 }]);
    expect(coverage.missedOrdinals).toEqual([9]);
  });

  it("flags gaps that no handoff of the provider thread covers", () => {
    const a = providerThread("pth_A", "codex", 1, 9, { handoffIds: ["hnd_1"] });
    const partial = describeCoverage(a, history, [handoff("hnd_1", "pth_A", 6, 7)]);
    expect(partial.unbridged).toEqual([{ from: 8, to: 8 }]);
    const noHandoffs = describeCoverage(providerThread("pth_A", "codex", 1, 9), history);
    expect(noHandoffs.unbridged).toEqual([{ from: 6, to: 8 }]);
    expect(isCaughtUp(noHandoffs)).toBe(false);
  });

  it("ignores failed handoffs and trusts the runs a thread executed over a stale lastRunOrdinal", () => {
    const a = providerThread("pth_A", "codex", 1, 5, { handoffIds: ["hnd_1"] });
    const failed = { ...handoff("hnd_1", "pth_A", 6, 8), status: "failed" as const };
    const coverage = describeCoverage(a, history, [failed]);
    expect(coverage.lastSeenOrdinal).toBe(9);
    expect(coverage.unbridged).toEqual([{ from: 6, to: 8 }]);
  });
});
