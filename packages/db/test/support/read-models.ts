import {
  assembleThreadDetail,
  assembleThreadShells,
  collectInheritedTurnItems,
  type ProjectionRow as DomainRow,
  type ForkInheritance,
  type InheritanceSource,
  type ThreadDetail,
  type ThreadShell,
  type TurnItem,
} from "@skein/domain";
import type { ProjectionQuery, ProjectionRow } from "../../src/index.ts";

/**
 * Read models assembled from store rows the way the API will (P1, P2, P7). Each function runs
 * inside one `store.snapshot`, so all the rows it combines are from the same instant.
 */

/** Rows typed by the table they came from: `data` is what the domain projector wrote there. */
function typed<T>(rows: readonly ProjectionRow[]): readonly DomainRow<T>[] {
  return rows as readonly DomainRow<T>[];
}

/**
 * P7: the items a fork inherits, read by reference. Each source's `turn_items` rows are read with
 * the cutoff pushed into SQL; forks of forks walk up the chain.
 */
export async function readInheritedTurnItems(
  query: ProjectionQuery,
  inheritance: ForkInheritance,
): Promise<TurnItem[]> {
  const sources = new Map<string, InheritanceSource>();
  let next: ForkInheritance | null = inheritance;
  for (let depth = 0; next !== null && depth < 64; depth += 1) {
    const shell = await query.get("threads", next.sourceThreadId);
    if (!shell) break;
    const upstream = (shell.data as ThreadShell).inheritance;
    const rows = await query.list("turn_items", {
      threadId: next.sourceThreadId,
      maxSortKey: next.cutoffSortKey,
      maxRunOrdinal: next.sourceRunOrdinal,
    });
    sources.set(next.sourceThreadId, { inheritance: upstream, rows: typed<TurnItem>(rows) });
    next = upstream;
  }
  return collectInheritedTurnItems(inheritance, (threadId) => sources.get(threadId));
}

/** P2: the thread row, runs, turn items, transfers, checkpoints and pending requests. */
export async function readThreadDetail(
  query: ProjectionQuery,
  threadId: string,
): Promise<ThreadDetail | undefined> {
  const thread = await query.get("threads", threadId);
  if (!thread) return undefined;
  const own = { threadId };
  const inheritance = (thread.data as ThreadShell).inheritance;
  return assembleThreadDetail({
    thread: thread as DomainRow<ThreadShell>,
    runs: typed(await query.list("runs", own)),
    turnItems: typed(await query.list("turn_items", own)),
    transfers: typed(await query.list("transfers", own)),
    checkpoints: typed(await query.list("checkpoints", own)),
    requests: typed(await query.list("requests", { threadId, status: "pending" })),
    inheritedTurnItems: inheritance ? await readInheritedTurnItems(query, inheritance) : [],
  });
}

/** P1: every thread shell, most recently active first. */
export async function readThreadShells(query: ProjectionQuery): Promise<ThreadShell[]> {
  return assembleThreadShells(typed<ThreadShell>(await query.list("threads")));
}
