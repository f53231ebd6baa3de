import type { TurnItem } from "../entities/turn-item.ts";
import type { DomainEvent, ThreadEvent } from "../events.ts";
import { assembleThreadDetail } from "../projections/thread-detail.ts";
import type { ThreadShell } from "../projections/thread-shell.ts";
import { projectEvent } from "../projections/project-event.ts";
import type { ProjectionRow, ProjectionTable } from "../projections/projection-write.ts";
import { applyWrites, type RowMap } from "../projections/rebuild.ts";
import { evolveThread } from "../state/evolve-thread.ts";
import { initialThreadState } from "../state/thread-state.ts";

/** Applies a thread's events one by one, as the store does per append (incremental tables). */
export function incrementalRows(events: readonly ThreadEvent[], rows: RowMap = new Map()): RowMap {
  const state = initialThreadState();
  for (const event of events) {
    evolveThread(state, event);
    applyWrites(rows, projectEvent(state, event as DomainEvent));
  }
  return rows;
}

export function tableRows<T>(
  rows: RowMap,
  table: ProjectionTable,
  threadId?: string,
): ProjectionRow<T>[] {
  const out: ProjectionRow<T>[] = [];
  for (const row of rows.values()) {
    if (row.table === table && (threadId === undefined || row.threadId === threadId)) {
      out.push(row as ProjectionRow<T>);
    }
  }
  return out;
}

/** P2 assembled from table rows, as the API does from a snapshot read. */
export function detailFromRows(rows: RowMap, threadId: string, inherited: TurnItem[] = []) {
  const thread = tableRows<ThreadShell>(rows, "threads", threadId)[0];
  if (!thread) throw new Error(`no shell for ${threadId}`);
  return assembleThreadDetail({
    thread,
    runs: tableRows(rows, "runs", threadId),
    turnItems: tableRows(rows, "turn_items", threadId),
    transfers: tableRows(rows, "transfers", threadId),
    checkpoints: tableRows(rows, "checkpoints", threadId),
    requests: tableRows(rows, "requests", threadId),
    inheritedTurnItems: inherited,
  });
}
