import type { ProjectionFilter, ProjectionQuery } from "@skein/db";
import {
  assembleThreadDetail,
  type Checkpoint,
  type ContextTransfer,
  NotFoundError,
  type PlanArtifact,
  type ProjectionRow,
  type ProjectionTable,
  type Run,
  type RunAttempt,
  type RuntimeRequest,
  type ThreadId,
  type ThreadShell,
} from "@skein/domain";
import { type DetailWindow, type DetailWindowInput, readWindowRows } from "./detail-window.ts";
import { readPendingRequests } from "./pending-requests.ts";
import { typedRows } from "./rows.ts";
import type { ThreadDetailData } from "@skein/contract";

/** Defined by the contract (the router's output types); re-exported for the read side. */
export type { ThreadDetailData };

export type { DetailWindow, DetailWindowInput };

/**
 * Rows of a per-run table (`sort_key` = run ordinal) for own runs `lo..hi`. Rows without a run
 * (`sort_key` 0: a transfer not yet bound to a run, a thread-level checkpoint) come with every
 * window, since they belong to none.
 */
async function windowRows<T>(
  query: ProjectionQuery,
  table: ProjectionTable,
  threadId: string,
  own: { lo: number; hi: number },
  withUnbound: boolean,
): Promise<readonly ProjectionRow<T>[]> {
  const reads: Promise<readonly ProjectionRow<T>[]>[] = [];
  const list = async (filter: ProjectionFilter) =>
    typedRows<T>(await query.list(table, { threadId, ...filter }));
  if (withUnbound) reads.push(list({ maxSortKey: 0 }));
  if (own.lo <= own.hi) reads.push(list({ minSortKey: Math.max(own.lo, 1), maxSortKey: own.hi }));
  return (await Promise.all(reads)).flat();
}

export async function readThreadDetail(
  query: ProjectionQuery,
  threadId: ThreadId,
  windowInput: DetailWindowInput = {},
): Promise<ThreadDetailData> {
  const thread = await query.get("threads", threadId);
  if (thread === undefined) throw new NotFoundError("thread", threadId);
  const shell = typedRows<ThreadShell>([thread])[0]!;
  const windowed = await readWindowRows(query, shell.data, windowInput);
  const { own } = windowed;
  const [runs, attempts, transfers, checkpoints, plans, requests, pendingRequests] =
    await Promise.all([
      windowRows<Run>(query, "runs", threadId, own, false),
      windowRows<RunAttempt>(query, "attempts", threadId, own, false),
      windowRows<ContextTransfer>(query, "transfers", threadId, own, true),
      windowRows<Checkpoint>(query, "checkpoints", threadId, own, true),
      windowRows<PlanArtifact>(query, "plans", threadId, own, false),
      windowRows<RuntimeRequest>(query, "requests", threadId, own, false),
      readPendingRequests(query, threadId),
    ]);
  const detail = assembleThreadDetail({
    thread: shell,
    runs,
    attempts,
    turnItems: windowed.ownTurnItems,
    transfers,
    checkpoints,
    plans,
    requests,
    inheritedTurnItems: windowed.inheritedTurnItems,
  });
  return { ...detail, pendingRequests, window: windowed.window };
}
