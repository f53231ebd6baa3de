import type { Run, RunStatus } from "../entities/run.ts";
import type { RunId } from "../ids.ts";
import type { ThreadState } from "./thread-state.ts";

const SETTLED: ReadonlySet<RunStatus> = new Set(["completed", "interrupted", "failed"]);

export function isSettledRun(run: Run): boolean {
  return SETTLED.has(run.status);
}

/** A completed run whose root checkpoint is ready: the preferred fork point (T2). */
export function isStableRun(s: ThreadState, run: Run): boolean {
  if (run.status !== "completed" || !run.checkpointId) return false;
  return s.checkpoints.get(run.checkpointId)?.status === "ready";
}

function ordinalOf(s: ThreadState, id: RunId | null): number {
  return id ? (s.runs.get(id)?.ordinal ?? 0) : 0;
}

/** O(1) cache upkeep when a run ends or gains a checkpoint. */
export function noteRunSettled(s: ThreadState, run: Run): void {
  if (!isSettledRun(run)) return;
  if (run.ordinal > ordinalOf(s, s.lastSettledRunId)) s.lastSettledRunId = run.id;
  if (run.status !== "completed") return;
  if (run.ordinal > ordinalOf(s, s.latestCompletedRunId)) s.latestCompletedRunId = run.id;
  if (isStableRun(s, run) && run.ordinal > ordinalOf(s, s.latestStableRunId)) {
    s.latestStableRunId = run.id;
  }
}

/**
 * Full rescan, O(runs). Only rollbacks and vanished checkpoints need it; both are rare, user-paced
 * operations, so the amortized cost per event stays O(1).
 */
export function recomputeRunCaches(s: ThreadState): void {
  s.latestCompletedRunId = null;
  s.latestStableRunId = null;
  s.lastSettledRunId = null;
  for (let i = s.runOrder.length - 1; i >= 0; i -= 1) {
    const run = s.runs.get(s.runOrder[i] as RunId);
    if (!run) continue;
    if (!s.lastSettledRunId && isSettledRun(run)) s.lastSettledRunId = run.id;
    if (!s.latestCompletedRunId && run.status === "completed") s.latestCompletedRunId = run.id;
    if (!s.latestStableRunId && isStableRun(s, run)) s.latestStableRunId = run.id;
    if (s.lastSettledRunId && s.latestCompletedRunId && s.latestStableRunId) return;
  }
}
