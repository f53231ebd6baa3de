import type { ForkSourcePointSpec } from "../commands/thread-lifecycle-commands.ts";
import type { ContextSourcePoint } from "../entities/context-source-point.ts";
import type { Run } from "../entities/run.ts";
import { PreconditionFailedError } from "../errors.ts";
import type { RunId } from "../ids.ts";
import { isSettledRun } from "../state/run-caches.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { pointAtRun } from "./builders.ts";
import { requireEntity } from "./guards.ts";

export type ResolvedPoint = {
  point: ContextSourcePoint;
  run: Run | null;
  /** Source turn items with a larger sort key are not part of the point (P7). */
  cutoffSortKey: number;
};

/**
 * The latest stable point of a thread (T2): the latest completed run with a ready checkpoint,
 * else the latest completed run, else the thread's empty beginning. Cached, so O(1).
 */
export function latestStablePoint(s: ThreadState): ResolvedPoint {
  const runId = s.latestStableRunId ?? s.latestCompletedRunId;
  const run = runId ? (s.runs.get(runId) ?? null) : null;
  const threadId = s.thread?.id;
  if (!threadId) throw new PreconditionFailedError("source thread does not exist");
  return { point: pointAtRun(s, threadId, run), run, cutoffSortKey: s.nextItemSortKey - 1 };
}

/** T2: never a point inside a run that is still in progress. */
export function resolveForkPoint(s: ThreadState, spec: ForkSourcePointSpec): ResolvedPoint {
  if (spec.type === "latest_stable") return latestStablePoint(s);
  if (spec.type === "run") return pointAtSettledRun(s, spec.runId);
  const checkpoint = requireEntity(s.checkpoints, spec.checkpointId, "Checkpoint");
  if (checkpoint.status !== "ready") {
    throw new PreconditionFailedError(`checkpoint ${checkpoint.id} is ${checkpoint.status}`);
  }
  if (!checkpoint.runId) {
    throw new PreconditionFailedError(`checkpoint ${checkpoint.id} is not tied to a run`);
  }
  const resolved = pointAtSettledRun(s, checkpoint.runId);
  // The point IS the checkpoint (a file state), not the run's conversation: transfer builds a
  // checkpoint_summary for it when it cannot fork natively (issue 6); native refs stay usable.
  return { ...resolved, point: { ...resolved.point, runId: null, checkpointId: checkpoint.id } };
}

function pointAtSettledRun(s: ThreadState, runId: RunId): ResolvedPoint {
  const run = requireEntity(s.runs, runId, "Run");
  if (!isSettledRun(run)) {
    const why = run.status === "cancelled" || run.status === "rolled_back" ? "was" : "is still";
    throw new PreconditionFailedError(
      `run ${run.id} ${why} ${run.status}; a fork needs a settled source point`,
    );
  }
  const threadId = s.thread?.id;
  if (!threadId) throw new PreconditionFailedError("source thread does not exist");
  return {
    point: pointAtRun(s, threadId, run),
    run,
    cutoffSortKey: s.maxItemSortKeyByRun.get(run.id) ?? s.nextItemSortKey - 1,
  };
}
