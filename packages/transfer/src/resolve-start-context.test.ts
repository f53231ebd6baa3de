import { describe, expect, it } from "vitest";
import { resolveStartContext } from "./resolve-start-context.ts";
import {
  ALL_CAPABILITIES,
  providerThread,
  resolveInput,
  runId,
  runs,
  transfer,
} from "./test-support/fixtures.ts";

const onA = runs({ from: 1, to: 3, provider: "codex", providerThreadId: "pth_A" });
const source = runs({
  threadId: "thr_source",
  from: 1,
  to: 4,
  provider: "codex",
  providerThreadId: "pth_S",
});
const forkAt = (ordinal: number, refs = true) =>
  transfer({
    type: "fork",
    sourcePoint: {
      threadId: "thr_source",
      runId: runId("thr_source", ordinal),
      providerThreadRef: refs ? "codex-thread-S" : null,
      providerTurnRef: refs ? `codex-turn-${ordinal}` : null,
    },
  });

describe("resolveStartContext outcomes", () => {
  it("T5: none when the target provider thread already covers the latest counted run", () => {
    const result = resolveStartContext(
      resolveInput({ runs: onA, providerThreads: [providerThread("pth_A", "codex", 1, 3)] }),
    );
    expect(result).toMatchObject({
      kind: "none",
      transfer: null,
      target: { action: "continue", providerThreadId: "pth_A", resume: false },
    });
  });

  it("T5: native for a pending fork on the same provider with a native ref", () => {
    const result = resolveStartContext(
      resolveInput({ runs: source, pendingTransfers: [forkAt(3)] }),
    );
    expect(result).toMatchObject({
      kind: "native",
      transfer: { kind: "existing", transferId: "ctx_1", type: "fork" },
      fork: { providerThreadRef: "codex-thread-S", providerTurnRef: "codex-turn-3" },
    });
  });

  it("T5: portable when the chosen provider has no provider thread on the thread", () => {
    const result = resolveStartContext(
      resolveInput({
        provider: "claude",
        runs: onA,
        providerThreads: [providerThread("pth_A", "codex", 1, 3)],
      }),
    );
    expect(result).toMatchObject({
      kind: "portable",
      handoff: { strategy: "full_thread_summary" },
    });
  });

  it("T5: delta when the chosen provider's thread missed runs", () => {
    const result = resolveStartContext(
      resolveInput({
        runs: [...onA, ...runs({ from: 4, to: 4, provider: "claude", providerThreadId: "pth_B" })],
        providerThreads: [providerThread("pth_A", "codex", 1, 3)],
      }),
    );
    expect(result).toMatchObject({
      kind: "delta",
      handoff: { strategy: "delta_since_target_last_seen", coveredRunOrdinals: { from: 4, to: 4 } },
    });
  });

  it("T5: unsupported, with a reason, when the source point is still running (T2)", () => {
    const running = source.map((run) =>
      run.ordinal === 4 ? { ...run, status: "running" as const } : run,
    );
    const result = resolveStartContext(
      resolveInput({ runs: running, pendingTransfers: [forkAt(4)] }),
    );
    expect(result).toMatchObject({
      kind: "unsupported",
      reason: "source_point_unstable",
      transferIds: ["ctx_1"],
    });
  });

  it("none on a brand-new thread: nothing to carry, start a provider thread", () => {
    expect(resolveStartContext(resolveInput())).toEqual({
      kind: "none",
      transfer: null,
      target: { action: "start_new", replacesProviderThreadId: null },
      coverage: null,
    });
  });

  it("fails explicitly on several pending transfers, since a run consumes one handoff", () => {
    const result = resolveStartContext(
      resolveInput({
        runs: source,
        pendingTransfers: [forkAt(3), { ...forkAt(2), id: "ctx_0" }],
      }),
    );
    expect(result).toMatchObject({
      kind: "unsupported",
      reason: "multiple_pending_transfers",
      transferIds: ["ctx_0", "ctx_1"],
    });
  });

  it("ignores transfers that are not pending or target another thread", () => {
    const consumed = { ...forkAt(3), status: "consumed" as const };
    const elsewhere = { ...forkAt(3), id: "ctx_2", targetThreadId: "thr_other" };
    const result = resolveStartContext(
      resolveInput({
        runs: onA,
        providerThreads: [providerThread("pth_A", "codex", 1, 3)],
        pendingTransfers: [consumed, elsewhere],
      }),
    );
    expect(result.kind).toBe("none");
  });

  it("fails when a pending transfer names another target provider", () => {
    const result = resolveStartContext(
      resolveInput({
        runs: source,
        pendingTransfers: [{ ...forkAt(3), targetProvider: "claude" }],
      }),
    );
    expect(result).toMatchObject({ kind: "unsupported", reason: "target_provider_mismatch" });
  });

  it("fails when the source point's run is not among the given runs", () => {
    const result = resolveStartContext(resolveInput({ runs: [], pendingTransfers: [forkAt(3)] }));
    expect(result).toMatchObject({ kind: "unsupported", reason: "source_point_not_found" });
  });

  it("consumes a pending provider_handoff that turns out to need nothing", () => {
    const pending = transfer({
      type: "provider_handoff",
      sourceThreadId: "thr_main",
      sourcePoint: { threadId: "thr_main", runId: runId("thr_main", 3) },
    });
    const result = resolveStartContext(
      resolveInput({
        runs: onA,
        providerThreads: [providerThread("pth_A", "codex", 1, 3)],
        pendingTransfers: [pending],
        capabilities: ALL_CAPABILITIES,
      }),
    );
    expect(result).toMatchObject({
      kind: "none",
      transfer: { kind: "existing", transferId: "ctx_1", type: "provider_handoff" },
    });
  });

  it("is deterministic: the same input resolves to equal output", () => {
    const input = resolveInput({
      provider: "claude",
      runs: onA,
      providerThreads: [providerThread("pth_A", "codex", 1, 3)],
    });
    expect(resolveStartContext(structuredClone(input))).toEqual(resolveStartContext(input));
  });
});
