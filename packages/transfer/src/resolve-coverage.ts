import { makePlan } from "./handoff-plan.ts";
import type { ContextSourcePoint, ContextTransfer, Run } from "./inputs.ts";
import type {
  ExistingTransferRef,
  ResolveStartContextInput,
  StartContextResolution,
  TransferRef,
} from "./resolution-types.ts";
import { historySegments, type PointLookup } from "./run-history.ts";
import { planTarget, threadProgress } from "./target-plan.ts";

function pointAt(run: Run | undefined, threadId: string): ContextSourcePoint | null {
  if (run === undefined) return null;
  return { threadId, runId: run.id, checkpointId: run.checkpointId ?? null };
}

function existing(transfer: ContextTransfer): ExistingTransferRef {
  return { kind: "existing", transferId: transfer.id, type: transfer.type };
}

/**
 * Same app thread, chosen provider (T5 none, T6, T7): continue the provider thread that has
 * seen the most, bridge what it missed with a delta, or rebuild a new one from a full summary.
 * `pending` is a provider_handoff transfer the caller already recorded; without one, a draft is
 * returned whenever a handoff is needed, because every handoff belongs to a transfer (T6).
 */
export function resolveOnThread(
  input: ResolveStartContextInput,
  lookup: PointLookup,
  pending: ContextTransfer | null,
): StartContextResolution {
  const progress = threadProgress(input);
  const plan = planTarget(input, progress);
  const latestRun = progress.counted[progress.counted.length - 1];
  const transferFor = (basePoint: ContextSourcePoint | null): TransferRef =>
    pending !== null
      ? existing(pending)
      : {
          kind: "create",
          draft: {
            type: "provider_handoff",
            sourceThreadId: input.threadId,
            targetThreadId: input.threadId,
            sourcePoint: pointAt(latestRun, input.threadId) ?? { threadId: input.threadId },
            basePoint,
            sourceProvider: latestRun?.provider ?? null,
            targetProvider: input.provider,
          },
        };

  switch (plan.state) {
    case "fresh":
      return {
        kind: "none",
        transfer: pending !== null ? existing(pending) : null,
        target: { action: "start_new", replacesProviderThreadId: plan.replaces?.id ?? null },
        coverage: null,
      };
    case "current":
      return {
        kind: "none",
        transfer: pending !== null ? existing(pending) : null,
        target: {
          action: "continue",
          providerThreadId: plan.providerThread.id,
          resume: plan.providerThread.status === "not_loaded",
        },
        coverage: plan.coverage,
      };
    case "behind": {
      const lastSeenRun = progress.counted.find((r) => r.ordinal === plan.coverage.lastSeenOrdinal);
      return {
        kind: "delta",
        basis: "coverage_gap",
        transfer: transferFor(pointAt(lastSeenRun, input.threadId)),
        target: {
          action: "continue",
          providerThreadId: plan.providerThread.id,
          resume: plan.providerThread.status === "not_loaded",
        },
        handoff: makePlan(input, "delta_since_target_last_seen", [
          { threadId: input.threadId, ordinals: plan.coverage.missedOrdinals },
        ]),
        coverage: plan.coverage,
      };
    }
    case "rebuild": {
      const selection = historySegments(
        input.threadId,
        progress.latest,
        lookup,
        input.lineage ?? [],
      );
      return {
        kind: "portable",
        reason: plan.reason,
        transfer: transferFor(null),
        target: { action: "start_new", replacesProviderThreadId: plan.replaces?.id ?? null },
        handoff: makePlan(input, "full_thread_summary", selection),
      };
    }
  }
}
