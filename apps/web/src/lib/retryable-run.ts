import type { Run, ThreadDetail } from "./types.ts";

type RunLike = Pick<Run, "id" | "ordinal" | "status">;
type DetailLike = {
  thread: Pick<ThreadDetail["thread"], "archivedAt" | "deletedAt">;
  runs: readonly RunLike[];
};

const NOT_COUNTED = new Set(["cancelled", "rolled_back"]);
const RETRYABLE = new Set(["interrupted", "failed"]);
const BUSY = new Set(["queued", "starting", "running", "waiting"]);

/**
 * The run "Retry" is offered on (E4): the thread's latest counted run when it ended interrupted
 * or failed and nothing runs or waits in the queue; the server decides again on the click.
 */
export function retryableRunId(detail: DetailLike): string | null {
  if (detail.thread.archivedAt || detail.thread.deletedAt) return null;
  if (detail.runs.some((run) => BUSY.has(run.status))) return null;
  let latest: RunLike | undefined;
  for (const run of detail.runs) {
    if (NOT_COUNTED.has(run.status)) continue;
    if (!latest || run.ordinal > latest.ordinal) latest = run;
  }
  return latest && RETRYABLE.has(latest.status) ? latest.id : null;
}
