import {
  type AppendOutcome,
  appendedOutcome,
  fencedOut,
  type KnownReceipt,
  replayedOutcome,
  staleVersion,
  storedEvents,
} from "../append-outcome.ts";
import type { StoredEvent } from "../event-store.ts";
import type { PreparedAppend, PreparedWrite } from "../prepare-append.ts";
import type { ProjectionTable } from "../projection-types.ts";

export type { AppendOutcome, KnownReceipt };

/** What the batch transaction read under the log lock before deciding anything. */
export type BatchState = {
  head: number;
  versions: Map<string, number>;
  receipts: Map<string, KnownReceipt>;
  /** Owner of each runtime lease a fenced append of the batch names (absent = no lease). */
  leaseOwners: Map<string, string>;
};

export type EventRow = { event: StoredEvent; json: string; rawEventId: string | null };
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
    if (known !== undefined) return replayedOutcome(known, append);
  }
  const fenced = fencedOut(append, (lease) => state.leaseOwners.get(lease) ?? null);
  if (fenced !== null) return { ok: false, error: fenced };
  const current = state.versions.get(append.streamId) ?? 0;
  const stale = staleVersion(append, current);
  if (stale !== null) return { ok: false, error: stale };
  const events = storedEvents(append, firstSequence, current, recordedAt);
  for (let i = 0; i < events.length; i += 1) {
    plan.events.push({
      event: events[i]!,
      json: append.events[i]!.json,
      rawEventId: append.events[i]!.rawEventId,
    });
  }
  const outcome = appendedOutcome(append, events, firstSequence, current);
  const { lastSequence, streamVersion } = outcome.result;
  state.versions.set(append.streamId, streamVersion);
  plan.streams.set(append.streamId, streamVersion);
  for (const write of append.projections) netWrite(plan.tables, write, lastSequence);
  if (append.commandId !== null) {
    const receipt = {
      firstSequence,
      lastSequence,
      streamVersion,
      receiptJson: append.receiptJson,
      procedure: append.procedure,
      payloadHash: append.payloadHash,
    };
    state.receipts.set(append.commandId, receipt);
    plan.receipts.push({ ...receipt, commandId: append.commandId, streamId: append.streamId });
  }
  return outcome;
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
