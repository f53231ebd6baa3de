import {
  beyondHead,
  keptOrConflict,
  type PreparedReceipt,
  type ReceiptRow,
  storedReceipt,
} from "../command-receipt.ts";
import type { StoredReceipt } from "../event-store.ts";
import type { ReceiptTable } from "../store-base.ts";
import type { PgPool } from "./connection.ts";
import { underLogLock } from "./pg-writer.ts";

const COLUMNS = `stream_id, first_sequence, last_sequence, stream_version, receipt, procedure,
  payload_hash`;

/**
 * B3 receipts without events. Each record takes the log lock the writers take, so it is ordered
 * with every instance's appends: an append under the same id sees the row (and replays or refuses)
 * instead of failing its whole batch on the key, and the head it is checked against is final.
 */
export class PgReceiptTable implements ReceiptTable {
  constructor(
    private readonly pool: PgPool,
    private readonly lockKey: number,
  ) {}

  async record(receipt: PreparedReceipt): Promise<StoredReceipt> {
    return underLogLock(this.pool, this.lockKey, (client) => recordLocked(client, receipt));
  }
}

type Queryable = Pick<PgPool, "query">;

async function recordLocked(client: Queryable, receipt: PreparedReceipt): Promise<StoredReceipt> {
  const known = await client.query<ReceiptRow>(
    `SELECT ${COLUMNS} FROM command_receipts WHERE command_id = $1`,
    [receipt.commandId],
  );
  const dropIntent = () =>
    client.query("DELETE FROM command_intents WHERE command_id = $1", [receipt.commandId]);
  if (known.rows[0] !== undefined) {
    const kept = keptOrConflict(receipt, known.rows[0]);
    await dropIntent();
    return kept;
  }
  const head = await client.query<{ head: number }>(
    "SELECT COALESCE(MAX(sequence), 0) AS head FROM events",
  );
  const invalid = beyondHead(receipt, Number(head.rows[0]?.head ?? 0));
  if (invalid !== null) throw invalid;
  // No events of its own: an empty range just after the position it answers at, and the
  // stream's version as a reader at that position sees it (0 before its first event).
  const inserted = await client.query<ReceiptRow>(
    `INSERT INTO command_receipts (command_id, stream_id, first_sequence, last_sequence,
       stream_version, receipt, procedure, payload_hash)
     SELECT $1, $2, $3::bigint + 1, $3, COALESCE((
         SELECT stream_version FROM events WHERE stream_id = $2 AND sequence <= $3
         ORDER BY stream_version DESC LIMIT 1), 0), $4, $5, $6
     RETURNING ${COLUMNS}`,
    [
      receipt.commandId,
      receipt.streamId,
      receipt.lastSequence,
      receipt.receiptJson,
      receipt.procedure,
      receipt.payloadHash,
    ],
  );
  // The receipt now answers for the command: its intent (if any) is done.
  await dropIntent();
  return storedReceipt(inserted.rows[0]!);
}
