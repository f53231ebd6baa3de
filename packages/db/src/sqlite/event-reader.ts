import type Database from "better-sqlite3";
import type { RawSequence, StoredEvent, StoredReceipt } from "../event-store.ts";
import { type ReceiptRow, storedReceipt } from "../command-receipt.ts";
import { RECEIPT_BY_COMMAND } from "./receipt-table.ts";
import type { SqliteDatabase } from "./connection.ts";

type EventRow = {
  sequence: number;
  stream_id: string;
  stream_version: number;
  type: string;
  data: string;
  command_id: string | null;
  recorded_at: string;
};

const COLUMNS = "sequence, stream_id, stream_version, type, data, command_id, recorded_at";

/** Log reads on one connection; each call is a single statement, hence a consistent read. */
export class EventReader {
  private readonly all: Database.Statement<[number, number], EventRow>;
  private readonly stream: Database.Statement<[string, number, number], EventRow>;
  private readonly head: Database.Statement<[], number>;
  private readonly version: Database.Statement<[string], number>;
  private readonly receipt: Database.Statement<[string], ReceiptRow>;
  private readonly raw: Database.Statement<[string], RawSequence>;

  constructor(db: SqliteDatabase) {
    this.all = db.prepare<[number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE sequence > ? ORDER BY sequence LIMIT ?`,
    );
    this.stream = db.prepare<[string, number, number], EventRow>(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND sequence > ? AND sequence <= ?
       ORDER BY stream_version`,
    );
    this.head = db.prepare<[], number>("SELECT COALESCE(MAX(sequence), 0) FROM events").pluck();
    this.version = db
      .prepare<[string], number>("SELECT version FROM streams WHERE stream_id = ?")
      .pluck();
    this.receipt = db.prepare<[string], ReceiptRow>(RECEIPT_BY_COMMAND);
    // One JSON array parameter keeps the statement prepared once for any number of ids.
    this.raw = db.prepare<[string], RawSequence>(
      `SELECT raw_event_id AS rawEventId, sequence, stream_id AS streamId FROM events
       WHERE raw_event_id IN (SELECT value FROM json_each(?)) ORDER BY sequence`,
    );
  }

  rawSequences(rawEventIds: readonly string[]): RawSequence[] {
    return this.raw.all(JSON.stringify(rawEventIds));
  }

  findReceipt(commandId: string): StoredReceipt | null {
    const row = this.receipt.get(commandId);
    return row ? storedReceipt(row) : null;
  }

  readAll(afterSequence: number, limit?: number): StoredEvent[] {
    // SQLite treats a negative LIMIT as "no limit".
    return this.all.all(afterSequence, limit ?? -1).map(toStoredEvent);
  }

  readStream(
    streamId: string,
    afterSequence = 0,
    upToSequence = Number.MAX_SAFE_INTEGER,
  ): StoredEvent[] {
    return this.stream.all(streamId, afterSequence, upToSequence).map(toStoredEvent);
  }

  headSequence(): number {
    return this.head.get() ?? 0;
  }

  streamVersion(streamId: string): number {
    return this.version.get(streamId) ?? 0;
  }
}

function toStoredEvent(row: EventRow): StoredEvent {
  return {
    sequence: row.sequence,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    data: JSON.parse(row.data),
    commandId: row.command_id,
    recordedAt: row.recorded_at,
  };
}
