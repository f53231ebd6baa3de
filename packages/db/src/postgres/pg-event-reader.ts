import type { RawSequence, StoredEvent, StoredReceipt } from "../event-store.ts";
import type { PgPool } from "./connection.ts";

type EventRow = [
  sequence: number,
  streamId: string,
  streamVersion: number,
  type: string,
  data: string,
  commandId: string | null,
  recordedAt: string,
];

type ReceiptRow = [
  streamId: string,
  firstSequence: number,
  lastSequence: number,
  streamVersion: number,
  receipt: string,
  procedure: string,
  payloadHash: string,
];

const COLUMNS = "sequence, stream_id, stream_version, type, data, command_id, recorded_at";

/**
 * Log reads through a pool. Each call is one statement, so it sees one committed state; since
 * sequence allocation is serialized with commit (pg-writer.ts), that state is always a dense
 * prefix of the log and "events after N" never skips an event that commits later.
 */
export class PgEventReader {
  constructor(private readonly pool: PgPool) {}

  async readAll(afterSequence: number, limit?: number): Promise<StoredEvent[]> {
    // LIMIT NULL is no limit.
    const { rows } = await this.pool.query<EventRow>({
      name: "skein_read_all",
      text: `SELECT ${COLUMNS} FROM events WHERE sequence > $1 ORDER BY sequence LIMIT $2`,
      values: [afterSequence, limit ?? null],
      rowMode: "array",
    });
    return rows.map(toStoredEvent);
  }

  async readStream(
    streamId: string,
    afterSequence = 0,
    upToSequence = Number.MAX_SAFE_INTEGER,
  ): Promise<StoredEvent[]> {
    const { rows } = await this.pool.query<EventRow>({
      name: "skein_read_stream",
      text: `SELECT ${COLUMNS} FROM events WHERE stream_id = $1 AND sequence > $2
             AND sequence <= $3 ORDER BY stream_version`,
      values: [streamId, afterSequence, upToSequence],
      rowMode: "array",
    });
    return rows.map(toStoredEvent);
  }

  async headSequence(): Promise<number> {
    const { rows } = await this.pool.query<[number]>({
      name: "skein_head",
      text: "SELECT COALESCE(MAX(sequence), 0) FROM events",
      rowMode: "array",
    });
    return rows[0]?.[0] ?? 0;
  }

  async streamVersion(streamId: string): Promise<number> {
    const { rows } = await this.pool.query<[number]>({
      name: "skein_stream_version",
      text: "SELECT version FROM streams WHERE stream_id = $1",
      values: [streamId],
      rowMode: "array",
    });
    return rows[0]?.[0] ?? 0;
  }

  async rawSequences(rawEventIds: readonly string[]): Promise<RawSequence[]> {
    const { rows } = await this.pool.query<[string, number, string]>({
      name: "skein_raw_sequences",
      text: `SELECT raw_event_id, sequence, stream_id FROM events
             WHERE raw_event_id = ANY($1::text[]) ORDER BY sequence`,
      values: [rawEventIds],
      rowMode: "array",
    });
    return rows.map(([rawEventId, sequence, streamId]) => ({ rawEventId, sequence, streamId }));
  }

  async findReceipt(commandId: string): Promise<StoredReceipt | null> {
    const { rows } = await this.pool.query<ReceiptRow>({
      name: "skein_find_receipt",
      text: `SELECT stream_id, first_sequence, last_sequence, stream_version, receipt, procedure,
               payload_hash
             FROM command_receipts WHERE command_id = $1`,
      values: [commandId],
      rowMode: "array",
    });
    const row = rows[0];
    if (row === undefined) return null;
    return {
      streamId: row[0],
      firstSequence: row[1],
      lastSequence: row[2],
      streamVersion: row[3],
      receipt: JSON.parse(row[4]) as unknown,
      procedure: row[5],
      payloadHash: row[6],
    };
  }
}

function toStoredEvent(row: EventRow): StoredEvent {
  return {
    sequence: row[0],
    streamId: row[1],
    streamVersion: row[2],
    type: row[3],
    data: JSON.parse(row[4]),
    commandId: row[5],
    recordedAt: row[6],
  };
}
