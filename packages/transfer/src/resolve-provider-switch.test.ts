import { describe, expect, it } from "vitest";
import { buildHandoff } from "./build-handoff.ts";
import type { ContextTransfer, ProviderThread } from "./inputs.ts";
import type { StartContextResolution } from "./resolution-types.ts";
import { resolveStartContext } from "./resolve-start-context.ts";
import {
  ALL_CAPABILITIES,
  providerThread,
  resolveInput,
  runId,
  runs,
  turnItemsFor,
} from "./test-support/fixtures.ts";

// Runs 1–5 on Codex thread A, 6–8 on Claude thread B (seeded with a summary of 1–5).
const history = runs(
  { from: 1, to: 5, provider: "codex", providerThreadId: "pth_A" },
  { from: 6, to: 8, provider: "claude", providerThreadId: "pth_B" },
);
const threadA = providerThread("pth_A", "codex", 1, 5);
const threadB = providerThread("pth_B", "claude", 6, 8, { handoffIds: ["hnd_seed"] });
const run9OnCodex = (
  a: ProviderThread = threadA,
  overrides: Parameters<typeof resolveInput>[0] = {},
) =>
  resolveStartContext(resolveInput({ runs: history, providerThreads: [a, threadB], ...overrides }));

function expectKind<K extends StartContextResolution["kind"]>(
  result: StartContextResolution,
  kind: K,
): Extract<StartContextResolution, { kind: K }> {
  expect(result.kind).toBe(kind);
  return result as Extract<StartContextResolution, { kind: K }>;
}

describe("provider switch and return", () => {
  it("T6: switching provider on the same thread builds a full summary for a new provider thread", () => {
    const onA = history.filter((run) => run.ordinal <= 5);
    const result = expectKind(
      resolveStartContext(
        resolveInput({ provider: "claude", runs: onA, providerThreads: [threadA] }),
      ),
      "portable",
    );
    expect(result.reason).toBe("no_provider_thread");
    expect(result.target).toEqual({ action: "start_new", replacesProviderThreadId: null });
    expect(result.handoff.selection).toEqual([{ threadId: "thr_main", ordinals: [1, 2, 3, 4, 5] }]);
    expect(result.transfer).toEqual({
      kind: "create",
      draft: {
        type: "provider_handoff",
        sourceThreadId: "thr_main",
        targetThreadId: "thr_main",
        sourcePoint: {
          threadId: "thr_main",
          runId: runId("thr_main", 5),
          checkpointId: "ckp_thr_main_5",
        },
        basePoint: null,
        sourceProvider: "codex",
        targetProvider: "claude",
      },
    });
  });

  it("T7: returning to A after 6–8 on B resumes A with a delta covering exactly 6–8", () => {
    const result = expectKind(run9OnCodex({ ...threadA, status: "not_loaded" }), "delta");
    expect(result.basis).toBe("coverage_gap");
    expect(result.target).toEqual({ action: "continue", providerThreadId: "pth_A", resume: true });
    expect(result.handoff).toMatchObject({
      strategy: "delta_since_target_last_seen",
      kind: "delta_context",
      selection: [{ threadId: "thr_main", ordinals: [6, 7, 8] }],
      coveredRunOrdinals: { from: 6, to: 8 },
    });
    expect(result.transfer).toMatchObject({
      kind: "create",
      draft: {
        basePoint: { runId: runId("thr_main", 5) },
        sourcePoint: { runId: runId("thr_main", 8) },
        sourceProvider: "claude",
        targetProvider: "codex",
      },
    });

    const handoff = buildHandoff({
      ...result.handoff,
      transfer: {
        id: "ctx_9",
        type: "provider_handoff",
        sourceThreadId: "thr_main",
        targetThreadId: "thr_main",
      },
      runs: history,
      turnItems: turnItemsFor(history),
      targetProvider: "codex",
      toProviderThreadId: result.target.providerThreadId,
    });
    expect(handoff.payload.runs.map((run) => run.ordinal)).toEqual([6, 7, 8]);
    expect(handoff.coveredRunOrdinals).toEqual({ from: 6, to: 8 });
    expect(handoff.fromProviderThreadIds).toEqual(["pth_B"]);
    expect(handoff.summaryText).toContain("[run 6 · user] user asks thr_main#6");
    expect(handoff.summaryText).not.toContain("[run 5 ·");
  });

  it("T7: a later return to B covers only the run it missed since", () => {
    const withRun9 = [
      ...history,
      ...runs({ from: 9, to: 9, provider: "codex", providerThreadId: "pth_A" }),
    ];
    const a = { ...threadA, lastRunOrdinal: 9, handoffIds: ["hnd_6_8"] };
    const result = expectKind(
      resolveStartContext(
        resolveInput({ provider: "claude", runs: withRun9, providerThreads: [a, threadB] }),
      ),
      "delta",
    );
    expect(result.handoff.selection).toEqual([{ threadId: "thr_main", ordinals: [9] }]);
    expect(result.target.providerThreadId).toBe("pth_B");
  });

  const fallbacks: [string, Parameters<typeof run9OnCodex>][] = [
    [
      "resume_failed",
      [
        threadA,
        {
          knownFailures: {
            providerThreads: [{ providerThreadId: "pth_A", reason: "resume_failed" }],
          },
        },
      ],
    ],
    [
      "incompatible_configuration",
      [
        threadA,
        {
          knownFailures: {
            providerThreads: [{ providerThreadId: "pth_A", reason: "incompatible_configuration" }],
          },
        },
      ],
    ],
    [
      "resume_unsupported",
      [
        { ...threadA, status: "not_loaded" },
        { capabilities: { ...ALL_CAPABILITIES, resume: false } },
      ],
    ],
    ["not_resumable", [{ ...threadA, status: "archived" }]],
    ["too_many_handoffs", [{ ...threadA, handoffIds: ["h1", "h2", "h3", "h4"] }]],
  ];
  it.each(fallbacks)(
    "T7: %s falls back to a full summary on a new provider thread",
    (reason, args) => {
      const result = expectKind(run9OnCodex(...args), "portable");
      expect(result.reason).toBe(reason);
      expect(result.target).toEqual({ action: "start_new", replacesProviderThreadId: "pth_A" });
      expect(result.handoff.strategy).toBe("full_thread_summary");
      expect(result.handoff.selection).toEqual([
        { threadId: "thr_main", ordinals: [1, 2, 3, 4, 5, 6, 7, 8] },
      ]);
    },
  );

  it("the handoff limit is a policy", () => {
    const tired = { ...threadA, handoffIds: ["h1", "h2"] };
    expect(run9OnCodex(tired).kind).toBe("delta");
    expect(run9OnCodex(tired, { policy: { maxHandoffsPerProviderThread: 2 } }).kind).toBe(
      "portable",
    );
  });

  it("a gap the provider thread's handoffs do not cover forces a rebuild", () => {
    const back = [
      ...history,
      ...runs({ from: 9, to: 9, provider: "codex", providerThreadId: "pth_A" }),
    ];
    const a = { ...threadA, lastRunOrdinal: 9 };
    const result = resolveStartContext(resolveInput({ runs: back, providerThreads: [a, threadB] }));
    expect(result).toMatchObject({ kind: "portable", reason: "coverage_hole" });
  });

  it("cancelled and rolled-back runs are not progress a provider must learn", () => {
    const extra = [
      ...runs({
        from: 6,
        to: 6,
        provider: "claude",
        providerThreadId: "pth_B",
        status: "rolled_back",
      }),
      ...runs({ from: 7, to: 7, provider: "claude", providerThreadId: null, status: "cancelled" }),
      ...runs({ from: 8, to: 8, provider: "claude", providerThreadId: null, status: "failed" }),
    ];
    const onA = [...history.filter((run) => run.ordinal <= 5), ...extra];
    const result = resolveStartContext(resolveInput({ runs: onA, providerThreads: [threadA] }));
    expect(result.kind).toBe("none");
  });

  it("a fork's full summary includes the history it inherited up to its source point", () => {
    const source = runs({
      threadId: "thr_source",
      from: 1,
      to: 6,
      provider: "codex",
      providerThreadId: "pth_S",
    });
    const own = runs({ from: 4, to: 5, provider: "codex", providerThreadId: "pth_F" });
    const seed: ContextTransfer = {
      id: "ctx_fork",
      type: "fork",
      sourceThreadId: "thr_source",
      targetThreadId: "thr_main",
      sourcePoint: { threadId: "thr_source", runId: runId("thr_source", 3) },
      status: "consumed",
    };
    const result = expectKind(
      resolveStartContext(
        resolveInput({
          provider: "claude",
          runs: [...source, ...own],
          providerThreads: [providerThread("pth_F", "codex", 4, 5)],
          lineage: [seed],
        }),
      ),
      "portable",
    );
    expect(result.handoff.selection).toEqual([
      { threadId: "thr_source", ordinals: [1, 2, 3] },
      { threadId: "thr_main", ordinals: [4, 5] },
    ]);
  });
});
