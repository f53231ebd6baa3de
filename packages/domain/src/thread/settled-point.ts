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

/** T2: the end of a settled run; a run still in progress (or never done) is refused. */
export function pointAtSettledRun(s: ThreadState, runId: RunId): ResolvedPoint {
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
