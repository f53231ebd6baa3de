import { ConcurrencyError } from "../errors.ts";
import type { AppendResult, StoredEvent } from "../event-store.ts";
import type { PreparedAppend, PreparedWrite } from "../prepare-append.ts";
import type { ProjectionTable } from "../projection-types.ts";

export type AppendOutcome =
  | { ok: true; result: AppendResult; events: StoredEvent[] }
  | { ok: false; error: Error };

export type KnownReceipt = {
  firstSequence: number;
  lastSequence: number;
  streamVersion: number;
  receiptJson: string;
};

/** What the batch transaction read under the log lock before deciding anything. */
export type BatchState = {
  head: number;
  versions: Map<string, number>;
  receipts: Map<string, KnownReceipt>;
};

export type EventRow = { event: StoredEvent; json: string };
export type ReceiptRow = KnownReceipt & { commandId: string; streamId: string };
export type PutRow = Extract<PreparedWrite, { op: "put" }> & { sequence: number };

/** Per table, the net effect of the batch's row writes: the last write of each id wins. */
export type TableWrites = { puts: Map<string, PutRow>; deletes: Set<string> };

export type BatchPlan = {
  outcomes: AppendOutcome[];
  events: EventRow[];
  /** Final version of every stream the batch appended to. */
  streams: Map<string, number>;
  receipts: ReceiptRow[];
  tables: Map<ProjectionTable, TableWrites>;
};

/**
 * Judges a batch of appends one by one against the state read under the lock, exactly as the
 * SQLite writer does statement by statement: a duplicate command id (also within the batch)
 * returns the stored receipt, a stale version is a ConcurrencyError, everything else gets the
 * next sequences. The result is row sets for a few bulk statements instead of a round trip per
 * row; projection writes are netted per id, which leaves the same rows as applying them in order.
 */
export function planBatch(
  batch: readonly PreparedAppend[],
  state: BatchState,
  recordedAt: string,
): BatchPlan {
  const plan: BatchPlan = {
    outcomes: [],
    events: [],
    streams: new Map(),
    receipts: [],
    tables: new Map(),
  };
  let next = state.head + 1;
  for (const append of batch) {
    const outcome = planOne(append, next, state, plan, recordedAt);
    if (outcome.ok && !outcome.result.duplicate) next = outcome.result.lastSequence + 1;
    plan.outcomes.push(outcome);
  }
  return plan;
}

function planOne(
  append: PreparedAppend,
  firstSequence: number,
  state: BatchState,
  plan: BatchPlan,
  recordedAt: string,
): AppendOutcome {
  if (append.commandId !== null) {
    const known = state.receipts.get(append.commandId);
    if (known !== undefined) {
      return {
        ok: true,
        events: [],
        result: {
          firstSequence: known.firstSequence,
          lastSequence: known.lastSequence,
          streamVersion: known.streamVersion,
          receipt: JSON.parse(known.receiptJson),
          duplicate: true,
        },
      };
    }
  }
  const current = state.versions.get(append.streamId) ?? 0;
  if (append.expected !== null && append.expected !== current) {
    return { ok: false, error: new ConcurrencyError(append.streamId, append.expected, current) };
  }
  const events = append.events.map((event, index): StoredEvent => {
    const stored: StoredEvent = {
      sequence: firstSequence + index,
      streamId: append.streamId,
      streamVersion: current + index + 1,
      type: event.type,
      // Parsed back from the stored text so live subscribers see exactly what readAll returns.
      data: JSON.parse(event.json),
      commandId: append.commandId,
      recordedAt,
    };
    plan.events.push({ event: stored, json: event.json });
    return stored;
  });
  const lastSequence = firstSequence + events.length - 1;
  const streamVersion = current + events.length;
  state.versions.set(append.streamId, streamVersion);
  plan.streams.set(append.streamId, streamVersion);
  for (const write of append.projections) netWrite(plan.tables, write, lastSequence);
  if (append.commandId !== null) {
    const receipt = { firstSequence, lastSequence, streamVersion, receiptJson: append.receiptJson };
    state.receipts.set(append.commandId, receipt);
    plan.receipts.push({ ...receipt, commandId: append.commandId, streamId: append.streamId });
  }
  return {
    ok: true,
    events,
    result: {
      firstSequence,
      lastSequence,
      streamVersion,
      receipt: JSON.parse(append.receiptJson),
      duplicate: false,
    },
  };
}

function netWrite(
  tables: Map<ProjectionTable, TableWrites>,
  write: PreparedWrite,
  sequence: number,
): void {
  let table = tables.get(write.table);
  if (table === undefined) {
    table = { puts: new Map(), deletes: new Set() };
    tables.set(write.table, table);
  }
  if (write.op === "delete") {
    table.puts.delete(write.id);
    table.deletes.add(write.id);
  } else {
    table.deletes.delete(write.id);
    // Re-inserted so iteration order follows the last write (only cosmetic: ids are unique).
    table.puts.delete(write.id);
    table.puts.set(write.id, { ...write, sequence });
  }
}
