import { describe, expect, it } from "vitest";
import type { Checkpoint, ContextTransfer } from "./inputs.ts";
import { resolveStartContext } from "./resolve-start-context.ts";
import { ALL_CAPABILITIES, resolveInput, runId, runs, transfer } from "./test-support/fixtures.ts";

// The fork thread thr_main was forked from thr_source at its run 3 (of 4).
const source = runs({
  threadId: "thr_source",
  from: 1,
  to: 4,
  provider: "codex",
  providerThreadId: "pth_S",
});
const fork: ContextTransfer = transfer({
  type: "fork",
  sourcePoint: {
    threadId: "thr_source",
    runId: runId("thr_source", 3),
    checkpointId: "ckp_thr_source_3",
    providerThreadRef: "codex-thread-S",
    providerTurnRef: "codex-turn-3",
  },
});
const firstDispatch = (overrides: Parameters<typeof resolveInput>[0] = {}) =>
  resolveStartContext(resolveInput({ runs: source, pendingTransfers: [fork], ...overrides }));

describe("fork resolution on first dispatch", () => {
  it("T3: same provider with native fork and a native ref forks natively at the source turn", () => {
    expect(firstDispatch()).toEqual({
      kind: "native",
      transfer: { kind: "existing", transferId: "ctx_1", type: "fork" },
      fork: {
        sourceThreadId: "thr_source",
        sourceProvider: "codex",
        sourceProviderThreadId: "pth_S",
        providerThreadRef: "codex-thread-S",
        providerTurnRef: "codex-turn-3",
        sourceRunOrdinal: 3,
      },
    });
  });

  it("T3: another provider builds a portable summary of the source up to the source point", () => {
    const result = firstDispatch({ provider: "claude" });
    expect(result).toMatchObject({
      kind: "portable",
      reason: "provider_differs",
      transfer: { kind: "existing", transferId: "ctx_1" },
      target: { action: "start_new", replacesProviderThreadId: null },
      handoff: {
        strategy: "full_thread_summary",
        kind: "portable_context",
        selection: [{ threadId: "thr_source", ordinals: [1, 2, 3] }],
        coveredRunOrdinals: { from: 1, to: 3 },
        newMessage: "next step please",
      },
    });
  });

  it("T3: a missing native fork capability falls back to portable", () => {
    const result = firstDispatch({ capabilities: { ...ALL_CAPABILITIES, nativeFork: false } });
    expect(result).toMatchObject({ kind: "portable", reason: "native_fork_unsupported" });
  });

  it("T3: a source point without a native turn ref is not reliable enough to fork natively", () => {
    const weak = { ...fork, sourcePoint: { ...fork.sourcePoint, providerTurnRef: null } };
    const result = firstDispatch({ pendingTransfers: [weak] });
    expect(result).toMatchObject({ kind: "portable", reason: "no_native_ref" });
  });

  it("T3: a native fork that already failed resolves to portable, saying so", () => {
    const result = firstDispatch({ knownFailures: { nativeForkFailedTransferIds: ["ctx_1"] } });
    expect(result).toMatchObject({ kind: "portable", reason: "native_fork_failed" });
  });

  it("uses the transfer's recorded source provider over the run's", () => {
    const result = firstDispatch({ pendingTransfers: [{ ...fork, sourceProvider: "claude" }] });
    expect(result).toMatchObject({ kind: "portable", reason: "provider_differs" });
  });

  it("a fork from an explicit checkpoint builds a checkpoint summary", () => {
    const checkpoint: Checkpoint = {
      id: "ckp_manual",
      runId: runId("thr_source", 2),
      appRunOrdinal: 2,
      ref: "abc123",
      status: "ready",
    };
    const byCheckpoint = transfer({
      type: "fork",
      sourcePoint: { threadId: "thr_source", checkpointId: "ckp_manual" },
    });
    const result = firstDispatch({ pendingTransfers: [byCheckpoint], checkpoints: [checkpoint] });
    expect(result).toMatchObject({
      kind: "portable",
      handoff: {
        strategy: "checkpoint_summary",
        kind: "checkpoint_context",
        checkpointId: "ckp_manual",
        selection: [{ threadId: "thr_source", ordinals: [1, 2] }],
      },
    });
  });

  it("a fork located by a turn item resolves to that item's run", () => {
    const byItem = transfer({
      type: "fork",
      sourcePoint: { threadId: "thr_source", turnItemId: "itm_x" },
    });
    const result = firstDispatch({
      provider: "claude",
      pendingTransfers: [byItem],
      turnItems: [{ id: "itm_x", runId: runId("thr_source", 2), type: "assistant_message" }],
    });
    expect(result).toMatchObject({ handoff: { selection: [{ ordinals: [1, 2] }] } });
  });

  it("a user-edited handoff replaces the summary but keeps its coverage", () => {
    const result = firstDispatch({ provider: "claude", manualContext: "We agreed on plan B." });
    expect(result).toMatchObject({
      kind: "portable",
      handoff: {
        strategy: "manual_context",
        kind: "portable_context",
        manualText: "We agreed on plan B.",
        coveredRunOrdinals: { from: 1, to: 3 },
      },
    });
  });

  it("a user-edited handoff wins over a native fork the same provider could do", () => {
    const result = firstDispatch({ manualContext: "Only plan B matters." });
    expect(result).toMatchObject({
      kind: "portable",
      reason: "manual_context",
      handoff: { strategy: "manual_context", manualText: "Only plan B matters." },
    });
  });

  it("a pending fork on a thread that already ran is an inconsistency, not a silent skip", () => {
    const own = runs({ from: 1, to: 1, provider: "codex", providerThreadId: "pth_F" });
    const result = firstDispatch({ runs: [...source, ...own] });
    expect(result).toMatchObject({ kind: "unsupported", reason: "seed_after_first_run" });
  });
});

describe("subagent spawn", () => {
  it("T9: a child with no inherited context starts clean and consumes the transfer", () => {
    const spawn = transfer({
      type: "subagent_spawn",
      sourceThreadId: "thr_parent",
      sourcePoint: { threadId: "thr_parent" },
      targetProvider: "claude",
    });
    const result = resolveStartContext(
      resolveInput({ provider: "claude", pendingTransfers: [spawn] }),
    );
    expect(result).toEqual({
      kind: "none",
      transfer: { kind: "existing", transferId: "ctx_1", type: "subagent_spawn" },
      target: { action: "start_new", replacesProviderThreadId: null },
      coverage: null,
    });
  });

  it("T9: a cross-provider child seeded from its parent gets a portable summary", () => {
    const spawn = transfer({
      type: "subagent_spawn",
      sourcePoint: { threadId: "thr_source", runId: runId("thr_source", 4) },
      targetProvider: "claude",
    });
    const result = resolveStartContext(
      resolveInput({ provider: "claude", runs: source, pendingTransfers: [spawn] }),
    );
    expect(result).toMatchObject({
      kind: "portable",
      reason: "provider_differs",
      handoff: { selection: [{ threadId: "thr_source", ordinals: [1, 2, 3, 4] }] },
    });
  });
});
