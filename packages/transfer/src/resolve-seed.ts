import { makePlan } from "./handoff-plan.ts";
import type { ContextTransfer, ProviderKind, Run } from "./inputs.ts";
import type {
  PortableReason,
  ResolveStartContextInput,
  StartContextResolution,
} from "./resolution-types.ts";
import { countedRunsOf, historySegments, locatePoint, type PointLookup } from "./run-history.ts";

function unsupported(
  transfer: ContextTransfer,
  reason: "seed_after_first_run" | "source_point_not_found" | "source_point_unstable",
  detail: string,
): StartContextResolution {
  return { kind: "unsupported", reason, detail, transferIds: [transfer.id] };
}

/** The first condition that rules out a native fork (T3), or null when native works. */
function nativeBlocker(
  input: ResolveStartContextInput,
  transfer: ContextTransfer,
  sourceProvider: ProviderKind | null,
): PortableReason | null {
  const point = transfer.sourcePoint;
  // The user wrote what is carried over; a native fork would carry the source history instead.
  if (input.manualContext !== undefined && input.manualContext !== null) return "manual_context";
  if (sourceProvider !== input.provider) return "provider_differs";
  if (!input.capabilities.nativeFork) return "native_fork_unsupported";
  // Only a turn-bounded fork is reliable; forking the head and rolling back is the adapter's
  // own fallback (C2) and cannot be promised here.
  if (!point.providerThreadRef || !point.providerTurnRef) return "no_native_ref";
  if (!input.capabilities.forkAtTurn) return "fork_at_turn_unsupported";
  if (input.knownFailures?.nativeForkFailedTransferIds?.includes(transfer.id)) {
    return "native_fork_failed";
  }
  return null;
}

/**
 * First dispatch on a thread created by a fork or a subagent spawn (T3, T4, T9): fork natively
 * when the same provider can do it at a reliable native ref, otherwise seed a new provider
 * thread with a handoff of the source's visible history up to the source point.
 */
export function resolveSeed(
  input: ResolveStartContextInput,
  lookup: PointLookup,
  transfer: ContextTransfer,
): StartContextResolution {
  const ownRuns = countedRunsOf(input.runs, input.threadId);
  if (ownRuns.length > 0) {
    return unsupported(
      transfer,
      "seed_after_first_run",
      `thread ${input.threadId} already has runs; ${transfer.type} transfer ${transfer.id} should have been consumed`,
    );
  }
  const point = transfer.sourcePoint;
  if (point.threadId !== transfer.sourceThreadId) {
    return unsupported(
      transfer,
      "source_point_not_found",
      `source point is in thread ${point.threadId}, not the transfer's source ${transfer.sourceThreadId}`,
    );
  }
  const at = locatePoint(point, lookup);
  if (!at.ok) return unsupported(transfer, at.reason, at.detail);
  const ref = { kind: "existing", transferId: transfer.id, type: transfer.type } as const;
  if (at.ordinal === null) {
    // Nothing happened before the source point: the child starts clean with its message.
    return {
      kind: "none",
      transfer: ref,
      target: { action: "start_new", replacesProviderThreadId: null },
      coverage: null,
    };
  }
  const sourceRun: Run | undefined = input.runs.find(
    (r) => r.threadId === transfer.sourceThreadId && r.ordinal === at.ordinal,
  );
  const sourceProvider = transfer.sourceProvider ?? sourceRun?.provider ?? null;
  const blocked = nativeBlocker(input, transfer, sourceProvider);
  // The repeated checks only narrow types; nativeBlocker already required them.
  if (
    blocked === null &&
    sourceProvider !== null &&
    point.providerThreadRef &&
    point.providerTurnRef
  ) {
    return {
      kind: "native",
      transfer: ref,
      fork: {
        sourceThreadId: transfer.sourceThreadId,
        sourceProvider,
        sourceProviderThreadId: sourceRun?.providerThreadId ?? null,
        providerThreadRef: point.providerThreadRef,
        providerTurnRef: point.providerTurnRef,
        sourceRunOrdinal: at.ordinal,
      },
    };
  }
  const selection = historySegments(
    transfer.sourceThreadId,
    at.ordinal,
    lookup,
    input.lineage ?? [],
    new Set(),
    point,
  );
  // An explicit checkpoint (not a run's) is a filesystem state first: say which files it holds.
  const byCheckpoint = Boolean(point.checkpointId) && !point.runId;
  return {
    kind: "portable",
    reason: blocked ?? "no_native_ref",
    transfer: ref,
    target: { action: "start_new", replacesProviderThreadId: null },
    handoff: makePlan(
      input,
      byCheckpoint ? "checkpoint_summary" : "full_thread_summary",
      selection,
      point.checkpointId ?? null,
    ),
  };
}
