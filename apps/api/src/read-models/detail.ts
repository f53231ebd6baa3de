import type { ProjectionQuery } from "@skein/db";
import {
  assembleThreadDetail,
  type Checkpoint,
  type ContextTransfer,
  collectInheritedTurnItems,
  type ForkInheritance,
  type InheritanceSource,
  NotFoundError,
  type PendingRequestView,
  type Run,
  type RuntimeRequest,
  type ThreadDetail,
  type ThreadId,
  type ThreadShell,
  type TurnItem,
} from "@skein/domain";
import { readPendingRequests } from "./pending-requests.ts";
import { listRows, typedRows } from "./rows.ts";

/** Forks of forks of … are followed at most this deep (the domain's own recursion bound). */
const MAX_FORK_DEPTH = 64;

/** P2 with P5's `answerable` flag on each pending request. */
export type ThreadDetailData = Omit<ThreadDetail, "pendingRequests"> & {
  pendingRequests: PendingRequestView[];
};

/**
 * P7: a fork's inherited items, read by reference. Each source thread's rows are fetched already
 * cut by the inheritance that points at it (`sort_key <= cutoff`, `run_ordinal <= source run`),
 * so only the rows a fork can see leave the database; nothing is copied into the fork.
 */
async function readInheritedItems(
  query: ProjectionQuery,
  inheritance: ForkInheritance,
): Promise<TurnItem[]> {
  const sources = new Map<string, InheritanceSource>();
  let current: ForkInheritance | null = inheritance;
  for (let depth = 0; current !== null && depth < MAX_FORK_DEPTH; depth += 1) {
    const sourceId: string = current.sourceThreadId;
    if (sources.has(sourceId)) break;
    const shell = await query.get("threads", sourceId);
    if (shell === undefined) break;
    const rows = await query.list("turn_items", {
      threadId: sourceId,
      maxSortKey: current.cutoffSortKey,
      maxRunOrdinal: current.sourceRunOrdinal,
    });
    const sourceInheritance = (shell.data as ThreadShell).inheritance;
    sources.set(sourceId, { inheritance: sourceInheritance, rows: typedRows<TurnItem>(rows) });
    current = sourceInheritance;
  }
  return collectInheritedTurnItems(inheritance, (threadId) => sources.get(threadId));
}

export async function readThreadDetail(
  query: ProjectionQuery,
  threadId: ThreadId,
): Promise<ThreadDetailData> {
  const thread = await query.get("threads", threadId);
  if (thread === undefined) throw new NotFoundError("thread", threadId);
  const shell = typedRows<ThreadShell>([thread])[0]!;
  const [runs, turnItems, transfers, checkpoints, requests, pendingRequests] = await Promise.all([
    listRows<Run>(query, "runs", threadId),
    listRows<TurnItem>(query, "turn_items", threadId),
    listRows<ContextTransfer>(query, "transfers", threadId),
    listRows<Checkpoint>(query, "checkpoints", threadId),
    listRows<RuntimeRequest>(query, "requests", threadId),
    readPendingRequests(query, threadId),
  ]);
  const inheritedTurnItems = shell.data.inheritance
    ? await readInheritedItems(query, shell.data.inheritance)
    : [];
  const detail = assembleThreadDetail({
    thread: shell,
    runs,
    turnItems,
    transfers,
    checkpoints,
    requests,
    inheritedTurnItems,
  });
  return { ...detail, pendingRequests };
}
