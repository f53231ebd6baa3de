import { type AggregateState, aggregateKindOfStream, evolve, initialStateFor } from "../decide.ts";
import type { DomainEvent } from "../events.ts";
import { projectEvent } from "./project-event.ts";
import type { ProjectionRow, ProjectionTable, ProjectionWrite } from "./projection-write.ts";

export type RowKey = `${ProjectionTable}/${string}`;
/** A table image row; `updatedSequence` is set when the writes came from a stored event. */
export type RebuiltRow = ProjectionRow & { table: ProjectionTable; updatedSequence?: number };
export type RowMap = Map<RowKey, RebuiltRow>;

/** A domain event as read back from the log (the sequence is absent for unstored events). */
export type LoggedEvent = DomainEvent & { sequence?: number };

/**
 * Applies writes to an in-memory table image (what the store does in SQL). The row's data is
 * copied: evolve mutates state in place, and a row must keep what it held when it was written.
 */
export function applyWrites(
  rows: RowMap,
  writes: readonly ProjectionWrite[],
  sequence?: number,
): RowMap {
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
      data: structuredClone(w.data),
      ...(sequence === undefined ? {} : { updatedSequence: sequence }),
    });
  }
  return rows;
}

/**
 * Rebuilds projection rows by folding evolve + projectEvent per stream, exactly as the live path
 * does per append: tests compare it with the incrementally maintained tables, and past reads (B8)
 * fold a log cut at a sequence through it. Stream order across streams does not matter: each
 * row belongs to exactly one stream.
 */
export function rebuildRows(
  eventsByStream: Iterable<readonly [string, readonly LoggedEvent[]]>,
): RowMap {
  const rows: RowMap = new Map();
  for (const [streamId, events] of eventsByStream) {
    foldEvents(initialStateFor(aggregateKindOfStream(streamId)), rows, events);
  }
  return rows;
}

function foldEvents(state: AggregateState, rows: RowMap, events: readonly LoggedEvent[]): void {
  for (const event of events) {
    evolve(state, event);
    applyWrites(rows, projectEvent(state, event), event.sequence);
  }
}

/**
 * Bump whenever `evolve` or `projectEvent` start deriving other state or rows from the same
 * events: past-read checkpoints stored by other code (B8) carry another version and are ignored,
 * so a stale fold never stands in for the log.
 */
export const STREAM_FOLD_VERSION = 2;

/**
 * One stream's rebuild, resumable: its aggregate state and the rows it owns after the event at
 * `sequence` (0 before any). Past reads (B8) keep copies of these as checkpoints and continue
 * from the nearest one instead of folding the stream from its start.
 */
export type StreamFold = {
  readonly streamId: string;
  state: AggregateState;
  rows: RowMap;
  sequence: number;
  version: number;
};

export function newStreamFold(streamId: string): StreamFold {
  return {
    streamId,
    state: initialStateFor(aggregateKindOfStream(streamId)),
    rows: new Map(),
    sequence: 0,
    version: 0,
  };
}

/** Folds logged events (in stream order, after the fold's position) into the fold, in place. */
export function continueStreamFold(
  fold: StreamFold,
  events: readonly (LoggedEvent & { streamVersion?: number })[],
): StreamFold {
  foldEvents(fold.state, fold.rows, events);
  const last = events.at(-1);
  if (last?.sequence !== undefined) fold.sequence = last.sequence;
  fold.version = last?.streamVersion ?? fold.version + events.length;
  return fold;
}

/**
 * An independent copy to keep or to continue: the state is cloned (evolve mutates it); rows are
 * shared, since a fold only ever replaces a row, never changes one.
 */
export function copyStreamFold(fold: StreamFold): StreamFold {
  return { ...fold, state: structuredClone(fold.state), rows: new Map(fold.rows) };
}
