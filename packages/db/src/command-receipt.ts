import { receiptConflict } from "./append-outcome.ts";
import { InvalidAppendError } from "./errors.ts";
import type { CommandReceipt, StoredReceipt } from "./event-store.ts";

/** A receipt without events, validated and serialized on the caller's tick (`recordReceipt`). */
export type PreparedReceipt = {
  commandId: string;
  streamId: string;
  procedure: string;
  payloadHash: string;
  lastSequence: number;
  receiptJson: string;
};

/** The stored row both databases read back, in the columns `command_receipts` has. */
export type ReceiptRow = {
  stream_id: string;
  first_sequence: number;
  last_sequence: number;
  stream_version: number;
  receipt: string;
  procedure: string;
  payload_hash: string;
};

/**
 * Refuses what cannot be a receipt. The binding is required: a receipt recorded on its own exists
 * to keep its id bound, and an unbound one would answer any retry (see `receiptConflict`).
 */
export function prepareReceipt(record: CommandReceipt): PreparedReceipt {
  const commandId = text(record.commandId, "commandId");
  const where = `receipt of ${commandId}`;
  if (!Number.isSafeInteger(record.lastSequence) || record.lastSequence < 0) {
    throw new InvalidAppendError(`${where}: lastSequence must be a non-negative integer`);
  }
  let receiptJson: string;
  try {
    receiptJson = JSON.stringify(record.receipt ?? null);
  } catch (error) {
    throw new InvalidAppendError(`${where}: receipt is not JSON: ${String(error)}`);
  }
  return {
    commandId,
    streamId: text(record.streamId, `${where}: streamId`),
    procedure: text(record.procedure, `${where}: procedure`),
    payloadHash: text(record.payloadHash, `${where}: payloadHash`),
    lastSequence: record.lastSequence,
    receiptJson,
  };
}

function text(value: unknown, name: string): string {
  if (typeof value !== "string" || value === "" || value.length > 200) {
    throw new InvalidAppendError(`${name} must be a non-empty string of at most 200 characters`);
  }
  return value;
}

/** A receipt placed at `lastSequence` past a head of `head` points at events that do not exist. */
export function beyondHead(prepared: PreparedReceipt, head: number): InvalidAppendError | null {
  return prepared.lastSequence > head
    ? new InvalidAppendError(
        `receipt of ${prepared.commandId}: lastSequence ${prepared.lastSequence} is past the log's head ${head}`,
      )
    : null;
}

/**
 * What an existing row means for a new record under its id: the first receipt kept when the
 * binding is the same, else the store's receipt conflict.
 */
export function keptOrConflict(prepared: PreparedReceipt, row: ReceiptRow): StoredReceipt {
  const stored = storedReceipt(row);
  const conflict = receiptConflict(prepared.commandId, stored, prepared);
  if (conflict !== null) throw conflict;
  return stored;
}

export function storedReceipt(row: ReceiptRow): StoredReceipt {
  return {
    streamId: row.stream_id,
    firstSequence: Number(row.first_sequence),
    lastSequence: Number(row.last_sequence),
    streamVersion: Number(row.stream_version),
    receipt: JSON.parse(row.receipt) as unknown,
    procedure: row.procedure,
    payloadHash: row.payload_hash,
  };
}
