import type {
  EventStore,
  NewEvent,
  ProjectionQuery,
  ProjectionRow,
  ProjectionWrite,
  StoredEvent,
} from "../../src/index.ts";
import { PROJECTION_TABLES } from "../../src/projection-tables.ts";

/**
 * A tiny stand-in domain for store tests: counters that are incremented, reset and removed. The
 * projector is pure and deterministic, so tables maintained by appends can be compared with a
 * rebuild from the log.
 */
export type CounterEvent =
  | { type: "Incremented"; data: { by: number } }
  | { type: "Reset"; data: Record<string, never> }
  | { type: "Removed"; data: Record<string, never> };

export type CounterState = { version: number; total: number; removed: boolean };

export const emptyCounter: CounterState = { version: 0, total: 0, removed: false };

export function evolve(state: CounterState, event: NewEvent): CounterState {
  const version = state.version + 1;
  switch (event.type) {
    case "Incremented":
      return { version, total: state.total + (event.data as { by: number }).by, removed: false };
    case "Reset":
      return { version, total: 0, removed: state.removed };
    case "Removed":
      return { version, total: state.total, removed: true };
    default:
      throw new Error(`unknown counter event ${event.type}`);
  }
}

/** Row writes for `events` appended to `streamId` on top of `before`. */
export function project(
  streamId: string,
  before: CounterState,
  events: readonly NewEvent[],
): ProjectionWrite[] {
  const writes: ProjectionWrite[] = [];
  let state = before;
  for (const event of events) {
    state = evolve(state, event);
    writes.push({
      op: "put",
      table: "turn_items",
      id: `${streamId}#${state.version}`,
      threadId: streamId,
      sortKey: state.version,
      runOrdinal: state.version % 3 === 0 ? null : state.version,
      status: event.type,
      data: { total: state.total },
    });
  }
  writes.push(
    state.removed
      ? { op: "delete", table: "threads", id: streamId }
      : {
          op: "put",
          table: "threads",
          id: streamId,
          threadId: streamId,
          sortKey: state.version,
          runOrdinal: null,
          status: state.total % 2 === 0 ? "even" : "odd",
          data: { total: state.total },
        },
  );
  return writes;
}

export function stateOf(events: readonly StoredEvent[]): CounterState {
  return events.reduce<CounterState>(evolve, emptyCounter);
}

type Tables = Record<string, Record<string, Omit<ProjectionRow, "id">>>;

/** Replays the whole log through the projector; appends are told apart by their command ids. */
export function rebuild(log: readonly StoredEvent[]): Tables {
  const tables: Tables = {};
  const states = new Map<string, CounterState>();
  let index = 0;
  while (index < log.length) {
    const first = log[index] as StoredEvent;
    const group: StoredEvent[] = [first];
    index += 1;
    while (index < log.length) {
      const next = log[index] as StoredEvent;
      if (first.commandId === null || next.commandId !== first.commandId) break;
      group.push(next);
      index += 1;
    }
    const last = group[group.length - 1] as StoredEvent;
    const before = states.get(first.streamId) ?? emptyCounter;
    for (const write of project(first.streamId, before, group)) {
      const table = tables[write.table] ?? {};
      tables[write.table] = table;
      if (write.op === "delete") {
        delete table[write.id];
      } else {
        table[write.id] = {
          threadId: write.threadId,
          sortKey: write.sortKey,
          runOrdinal: write.runOrdinal,
          status: write.status,
          data: write.data,
          updatedSequence: last.sequence,
        };
      }
    }
    states.set(first.streamId, group.reduce<CounterState>(evolve, before));
  }
  // readTables lists only tables that hold rows.
  for (const [name, rows] of Object.entries(tables)) {
    if (Object.keys(rows).length === 0) delete tables[name];
  }
  return tables;
}

/** Every projection row in the store, in the same shape as `rebuild`. */
export async function readTables(store: EventStore): Promise<Tables> {
  const { data } = await store.snapshot(async (query: ProjectionQuery) => {
    const tables: Tables = {};
    for (const table of PROJECTION_TABLES) {
      for (const { id, ...row } of await query.list(table)) {
        const rows = tables[table] ?? {};
        rows[id] = row;
        tables[table] = rows;
      }
    }
    return tables;
  });
  return data;
}

/**
 * One writer step: read the stream, decide, append with projections. `staleBy` > 0 deliberately
 * passes an old expectedVersion.
 */
export async function appendCounter(
  store: EventStore,
  streamId: string,
  events: readonly CounterEvent[],
  options: { commandId?: string; staleBy?: number } = {},
) {
  const before = stateOf(await store.readStream(streamId));
  return store.append(streamId, Math.max(0, before.version - (options.staleBy ?? 0)), events, {
    commandId: options.commandId,
    projections: project(streamId, before, events),
    receipt: { streamId, commandId: options.commandId ?? null },
  });
}

export function inc(by = 1): CounterEvent {
  return { type: "Incremented", data: { by } };
}
