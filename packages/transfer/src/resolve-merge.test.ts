import { describe, expect, it } from "vitest";
import type { ContextTransfer } from "./inputs.ts";
import { resolveStartContext } from "./resolve-start-context.ts";
import { providerThread, resolveInput, runId, runs } from "./test-support/fixtures.ts";

// Source thread thr_main: runs 1–5 on Codex thread S. Fork thr_fork was forked at run 3 and ran
// its own runs 4–6 on Claude (run 7 still streaming).
const main = runs({ from: 1, to: 5, provider: "codex", providerThreadId: "pth_S" });
const forkRuns = [
  ...runs({ threadId: "thr_fork", from: 4, to: 6, provider: "claude", providerThreadId: "pth_F" }),
  ...runs({
    threadId: "thr_fork",
    from: 7,
    to: 7,
    provider: "claude",
    providerThreadId: "pth_F",
    status: "running",
  }),
];
const threadS = providerThread("pth_S", "codex", 1, 5);
const bringBack = (partial: Partial<ContextTransfer> = {}): ContextTransfer => ({
  id: "ctx_merge",
  type: "merge_back",
  sourceThreadId: "thr_fork",
  targetThreadId: "thr_main",
  basePoint: { threadId: "thr_main", runId: runId("thr_main", 3) },
  sourcePoint: { threadId: "thr_fork", runId: runId("thr_fork", 6) },
  status: "pending",
  ...partial,
});
const resolveBringBack = (
  transfer: ContextTransfer,
  overrides: Parameters<typeof resolveInput>[0] = {},
) =>
  resolveStartContext(
    resolveInput({
      runs: [...main, ...forkRuns],
      providerThreads: [threadS],
      pendingTransfers: [transfer],
      ...overrides,
    }),
  );

describe("merge-back", () => {
  it("T8: the delta covers exactly the fork's runs after its source point; the thread keeps its provider thread", () => {
    expect(resolveBringBack(bringBack())).toMatchObject({
      kind: "delta",
      basis: "base_to_source",
      transfer: { kind: "existing", transferId: "ctx_merge", type: "merge_back" },
      target: { action: "continue", providerThreadId: "pth_S" },
      handoff: {
        strategy: "delta_since_target_last_seen",
        kind: "delta_context",
        selection: [{ threadId: "thr_fork", ordinals: [4, 5, 6] }],
      },
    });
  });

  it("T8: fork runs numbered from 1 are still all after the fork's source point", () => {
    const renumbered = runs({
      threadId: "thr_fork",
      from: 1,
      to: 3,
      provider: "claude",
      providerThreadId: "pth_F",
    });
    const result = resolveBringBack(
      bringBack({ sourcePoint: { threadId: "thr_fork", runId: runId("thr_fork", 3) } }),
      { runs: [...main, ...renumbered] },
    );
    expect(result).toMatchObject({
      handoff: { selection: [{ threadId: "thr_fork", ordinals: [1, 2, 3] }] },
    });
  });

  it("T8: a second bring-back from the same fork covers only what came after the first", () => {
    const again = bringBack({ basePoint: { threadId: "thr_fork", runId: runId("thr_fork", 4) } });
    expect(resolveBringBack(again)).toMatchObject({
      handoff: { selection: [{ threadId: "thr_fork", ordinals: [5, 6] }] },
    });
  });

  it("when the source thread's provider thread also missed runs, they join the same delta", () => {
    const behind = { ...threadS, lastRunOrdinal: 4 };
    const fifthOnClaude = [
      ...main.filter((run) => run.ordinal <= 4),
      ...runs({ from: 5, to: 5, provider: "claude", providerThreadId: "pth_C" }),
    ];
    const result = resolveBringBack(bringBack(), {
      runs: [...fifthOnClaude, ...forkRuns],
      providerThreads: [behind],
    });
    expect(result).toMatchObject({
      kind: "delta",
      handoff: {
        selection: [
          { threadId: "thr_main", ordinals: [5] },
          { threadId: "thr_fork", ordinals: [4, 5, 6] },
        ],
      },
    });
  });

  it("when the source thread's provider thread cannot continue, the delta rides on a full summary", () => {
    const result = resolveBringBack(bringBack(), {
      providerThreads: [{ ...threadS, status: "closed" }],
    });
    expect(result).toMatchObject({
      kind: "portable",
      reason: "not_resumable",
      target: { action: "start_new", replacesProviderThreadId: "pth_S" },
      handoff: {
        strategy: "full_thread_summary",
        selection: [
          { threadId: "thr_main", ordinals: [1, 2, 3, 4, 5] },
          { threadId: "thr_fork", ordinals: [4, 5, 6] },
        ],
      },
    });
  });

  it("refuses to bring back from a point that is still streaming (T2)", () => {
    const live = bringBack({ sourcePoint: { threadId: "thr_fork", runId: runId("thr_fork", 7) } });
    expect(resolveBringBack(live)).toMatchObject({
      kind: "unsupported",
      reason: "source_point_unstable",
    });
  });

  it("refuses an empty bring-back explicitly", () => {
    const empty = bringBack({ basePoint: { threadId: "thr_fork", runId: runId("thr_fork", 6) } });
    expect(resolveBringBack(empty)).toMatchObject({
      kind: "unsupported",
      reason: "nothing_to_transfer",
    });
  });
});

describe("subagent result", () => {
  it("T9: the child's runs return to the parent as a delta on the parent's provider thread", () => {
    const child = runs({
      threadId: "thr_child",
      from: 1,
      to: 2,
      provider: "claude",
      providerThreadId: "pth_K",
    });
    const result = resolveStartContext(
      resolveInput({
        runs: [...main, ...child],
        providerThreads: [threadS],
        pendingTransfers: [
          {
            id: "ctx_result",
            type: "subagent_result",
            sourceThreadId: "thr_child",
            targetThreadId: "thr_main",
            sourcePoint: { threadId: "thr_child", runId: runId("thr_child", 2) },
            basePoint: null,
            status: "pending",
          },
        ],
      }),
    );
    expect(result).toMatchObject({
      kind: "delta",
      transfer: { transferId: "ctx_result", type: "subagent_result" },
      target: { providerThreadId: "pth_S" },
      handoff: { selection: [{ threadId: "thr_child", ordinals: [1, 2] }] },
    });
  });
});
