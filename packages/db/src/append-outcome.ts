import { ConcurrencyError, LeaseFenceError, ReceiptConflictError } from "./errors.ts";
import type { AppendResult, ReceiptBinding, StoredEvent } from "./event-store.ts";
import type { PreparedAppend } from "./prepare-append.ts";

export type AppendOutcome =
  | { ok: true; result: AppendResult; events: StoredEvent[] }
  | { ok: false; error: Error };

/** A stored command receipt, as both writers read it back. */
export type KnownReceipt = {
  firstSequence: number;
  lastSequence: number;
  streamVersion: number;
  receiptJson: string;
  procedure: string;
  payloadHash: string;
};

/*
 * How one append is judged, shared by the SQLite writer (statement by statement) and the
 * PostgreSQL batch planner (row sets): a known command id returns its stored receipt, a stale
 * expected version is a ConcurrencyError, anything else gets the next sequences. The writers only
 * differ in where the state comes from and where the rows go.
 */

/**
 * The first append with this command id already committed: its receipt again, nothing new — or,
 * when both are bound (B3) and the procedure or payload differs, a ReceiptConflictError.
 */
export function replayedOutcome(known: KnownReceipt, append: PreparedAppend): AppendOutcome {
  const conflict = receiptConflict(append.commandId ?? "", known, append);
  if (conflict !== null) return { ok: false, error: conflict };
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

/**
 * B3: a used command id answers only the procedure and payload it was first bound to. The refusal
 * when `asked` differs from the `known` binding, or null; an unbound side (a receipt stored before
 * receipts were bound, an append without a binding) answers anything.
 */
export function receiptConflict(
  commandId: string,
  known: ReceiptBinding,
  asked: ReceiptBinding,
): ReceiptConflictError | null {
  if (known.procedure === "" || asked.procedure === "") return null;
  if (known.procedure !== asked.procedure) {
    return new ReceiptConflictError(commandId, known.procedure, "procedure");
  }
  if (known.payloadHash !== asked.payloadHash) {
    return new ReceiptConflictError(commandId, known.procedure, "payload");
  }
  return null;
}

/** A fenced append whose owner does not hold the lease (`holder`: who does, null = nobody). */
export function fencedOut(
  append: PreparedAppend,
  holder: (lease: string) => string | null,
): LeaseFenceError | null {
  if (append.fence === null) return null;
  const { lease, owner } = append.fence;
  const current = holder(lease);
  return current === owner ? null : new LeaseFenceError(lease, owner, current);
}

export function staleVersion(append: PreparedAppend, current: number): ConcurrencyError | null {
  return append.expected !== null && append.expected !== current
    ? new ConcurrencyError(append.streamId, append.expected, current)
    : null;
}

/** The append's events as stored, numbered from `firstSequence` after stream version `current`. */
export function storedEvents(
  append: PreparedAppend,
  firstSequence: number,
  current: number,
  recordedAt: string,
): StoredEvent[] {
  return append.events.map((event, index) => ({
    sequence: firstSequence + index,
    streamId: append.streamId,
    streamVersion: current + index + 1,
    type: event.type,
    // Parsed back from the stored text so live subscribers see exactly what readAll returns.
    data: JSON.parse(event.json),
    commandId: append.commandId,
    recordedAt,
  }));
}

/** The receipt of a new append whose `events` were just stored after version `current`. */
export function appendedOutcome(
  append: PreparedAppend,
  events: StoredEvent[],
  firstSequence: number,
  current: number,
): AppendOutcome & { ok: true } {
  return {
    ok: true,
    events,
    result: {
      firstSequence,
      lastSequence: firstSequence + events.length - 1,
      streamVersion: current + events.length,
      receipt: JSON.parse(append.receiptJson),
      duplicate: false,
    },
  };
}
