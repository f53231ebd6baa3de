import { makePlan } from "./handoff-plan.ts";
import type { ContextTransfer } from "./inputs.ts";
import type { ResolveStartContextInput, StartContextResolution } from "./resolution-types.ts";
import {
  countedRunsOf,
  historySegments,
  locatePoint,
  type PointLookup,
  type RunSegment,
} from "./run-history.ts";
import { planTarget, threadProgress } from "./target-plan.ts";

type DeltaRuns = { readonly ok: true; readonly segment: RunSegment } | StartContextResolution;

/**
 * The source thread's own counted runs after the base point, up to the source point. A base in
 * another thread (a fork's original source point lives in its parent) precedes all of the
 * source thread's own runs, whatever their numbering.
 */
function deltaRuns(transfer: ContextTransfer, lookup: PointLookup): DeltaRuns {
  const fail = (
    reason: "source_point_not_found" | "source_point_unstable" | "nothing_to_transfer",
    detail: string,
  ): StartContextResolution => ({
    kind: "unsupported",
    reason,
    detail,
    transferIds: [transfer.id],
  });
  const source = transfer.sourcePoint;
  if (source.threadId !== transfer.sourceThreadId) {
    return fail(
      "source_point_not_found",
      `source point is not in thread ${transfer.sourceThreadId}`,
    );
  }
  const to = locatePoint(source, lookup);
  if (!to.ok) return fail(to.reason, to.detail);
  let after = Number.NEGATIVE_INFINITY;
  const base = transfer.basePoint;
  if (base && base.threadId === transfer.sourceThreadId) {
    const from = locatePoint(base, lookup);
    if (!from.ok) return fail(from.reason, `base point: ${from.detail}`);
    after = from.ordinal ?? after;
  }
  const upTo = to.ordinal;
  const ordinals = countedRunsOf(lookup.runs, transfer.sourceThreadId)
    .map((run) => run.ordinal)
    .filter((ordinal) => upTo !== null && ordinal > after && ordinal <= upTo);
  if (ordinals.length === 0) {
    return fail(
      "nothing_to_transfer",
      `thread ${transfer.sourceThreadId} has no completed runs between the base and source points`,
    );
  }
  return { ok: true, segment: { threadId: transfer.sourceThreadId, ordinals } };
}

/**
 * Bring a fork's work back (T8) or hand a child's result to its parent (T9): a delta of the
 * source thread's runs since the base point, injected with the target's next message. The
 * target keeps its provider thread; if that thread also missed runs of the target itself, they
 * join the same delta, and if it cannot be continued the delta rides on a full summary.
 */
export function resolveMerge(
  input: ResolveStartContextInput,
  lookup: PointLookup,
  transfer: ContextTransfer,
): StartContextResolution {
  const delta = deltaRuns(transfer, lookup);
  if (!("ok" in delta)) return delta;
  const ref = { kind: "existing", transferId: transfer.id, type: transfer.type } as const;
  const progress = threadProgress(input);
  const plan = planTarget(input, progress);

  if (plan.state === "current" || plan.state === "behind") {
    const missed: RunSegment[] =
      plan.coverage.missedOrdinals.length > 0
        ? [{ threadId: input.threadId, ordinals: plan.coverage.missedOrdinals }]
        : [];
    return {
      kind: "delta",
      basis: "base_to_source",
      transfer: ref,
      target: {
        action: "continue",
        providerThreadId: plan.providerThread.id,
        resume: plan.providerThread.status === "not_loaded",
      },
      handoff: makePlan(input, "delta_since_target_last_seen", [...missed, delta.segment]),
      coverage: plan.coverage,
    };
  }
  const history = historySegments(input.threadId, progress.latest, lookup, input.lineage ?? []);
  return {
    kind: "portable",
    reason: plan.state === "fresh" ? "no_provider_thread" : plan.reason,
    transfer: ref,
    target: { action: "start_new", replacesProviderThreadId: plan.replaces?.id ?? null },
    handoff: makePlan(input, "full_thread_summary", [...history, delta.segment]),
  };
}
