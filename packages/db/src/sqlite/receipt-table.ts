import {
  beyondHead,
  keptOrConflict,
  type PreparedReceipt,
  type ReceiptRow,
  storedReceipt,
} from "../command-receipt.ts";
import type { StoredReceipt } from "../event-store.ts";
import type { ReceiptTable } from "../store-base.ts";
import type { SqliteDatabase } from "./connection.ts";

/** A command's stored receipt row (the event reader answers replays with the same statement). */
export const RECEIPT_BY_COMMAND = `SELECT stream_id, first_sequence, last_sequence, stream_version,
    receipt, procedure, payload_hash
  FROM command_receipts WHERE command_id = ?`;

/**
 * B3 receipts without events, on the writer connection: synchronous, so a record never
 * interleaves with a group commit's transaction, and IMMEDIATE, so no other writer does either.
 */
export class SqliteReceiptTable implements ReceiptTable {
  private readonly transaction: (receipt: PreparedReceipt) => StoredReceipt;

  constructor(db: SqliteDatabase) {
    const head = db.prepare<[], number>("SELECT COALESCE(MAX(sequence), 0) FROM events").pluck();
    const find = db.prepare<[string], ReceiptRow>(RECEIPT_BY_COMMAND);
    // The stream's version as a reader at `lastSequence` sees it (0 before its first event).
    const versionAt = db
      .prepare<[string, number], number>(
        `SELECT stream_version FROM events WHERE stream_id = ? AND sequence <= ?
         ORDER BY stream_version DESC LIMIT 1`,
      )
      .pluck();
    const insert = db.prepare<[string, string, number, number, number, string, string, string]>(
      `INSERT INTO command_receipts (command_id, stream_id, first_sequence, last_sequence,
         stream_version, receipt, procedure, payload_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const dropIntent = db.prepare<[string]>("DELETE FROM command_intents WHERE command_id = ?");
    this.transaction = db.transaction((receipt: PreparedReceipt): StoredReceipt => {
      const known = find.get(receipt.commandId);
      if (known !== undefined) {
        const kept = keptOrConflict(receipt, known);
        dropIntent.run(receipt.commandId);
        return kept;
      }
      const invalid = beyondHead(receipt, head.get() ?? 0);
      if (invalid !== null) throw invalid;
      const row: ReceiptRow = {
        stream_id: receipt.streamId,
        // No events of its own: an empty range just after the position it answers at.
        first_sequence: receipt.lastSequence + 1,
        last_sequence: receipt.lastSequence,
        stream_version: versionAt.get(receipt.streamId, receipt.lastSequence) ?? 0,
        receipt: receipt.receiptJson,
        procedure: receipt.procedure,
        payload_hash: receipt.payloadHash,
      };
      insert.run(
        receipt.commandId,
        row.stream_id,
        row.first_sequence,
        row.last_sequence,
        row.stream_version,
        row.receipt,
        row.procedure,
        row.payload_hash,
      );
      // The receipt now answers for the command: its intent (if any) is done.
      dropIntent.run(receipt.commandId);
      return storedReceipt(row);
    }).immediate;
  }

  record(receipt: PreparedReceipt): StoredReceipt {
    return this.transaction(receipt);
  }
}
