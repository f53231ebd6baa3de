import { type AggregateState, aggregateKindOfStream, evolve, initialStateFor } from "../decide.ts";
import type { DomainEvent } from "../events.ts";
import { projectEvent } from "./project-event.ts";
import type { ProjectionRow, ProjectionTable, ProjectionWrite } from "./projection-write.ts";

export type RowKey = `${ProjectionTable}/${string}`;
export type RowMap = Map<RowKey, ProjectionRow & { table: ProjectionTable }>;

/** Applies writes to an in-memory table image (what the store does in SQL). */
export function applyWrites(rows: RowMap, writes: readonly ProjectionWrite[]): RowMap {
  for (const w of writes) {
    const key: RowKey = `${w.table}/${w.id}`;
    if (w.op === "delete") {
      rows.delete(key);
      continue;
    }
    rows.set(key, {
      table: w.table,
      id: w.id,
      threadId: w.threadId,
      sortKey: w.sortKey,
      runOrdinal: w.runOrdinal,
      status: w.status,
      data: w.data,
    });
  }
  return rows;
}

/**
 * Rebuilds every projection row from the whole log by folding evolve + projectEvent per stream,
 * so a test can compare it with the incrementally maintained tables. Stream order across
 * streams does not matter: each row belongs to exactly one stream.
 */
export function rebuildRows(
  eventsByStream: Iterable<readonly [string, readonly DomainEvent[]]>,
): RowMap {
  const rows: RowMap = new Map();
  for (const [streamId, events] of eventsByStream) {
    const state: AggregateState = initialStateFor(aggregateKindOfStream(streamId));
    for (const event of events) {
      evolve(state, event);
      applyWrites(rows, projectEvent(state, event));
    }
  }
  return rows;
}
