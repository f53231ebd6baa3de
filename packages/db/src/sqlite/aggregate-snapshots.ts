import type { AggregateSnapshot } from "../event-store.ts";
import type { AggregateSnapshotTable } from "../store-base.ts";
import type { SqliteDatabase } from "./connection.ts";

type Row = { version: number; sequence: number; state: string };

/** Issue 20: aggregate snapshots on the writer connection (synchronous, between commits). */
export class SqliteAggregateSnapshots implements AggregateSnapshotTable {
  private readonly select;
  private readonly upsert;

  constructor(db: SqliteDatabase) {
    this.select = db.prepare<[string], Row>(
      "SELECT version, sequence, state FROM aggregate_snapshots WHERE stream_id = ?",
    );
    // An older snapshot never replaces a newer one (two writers may race on one stream).
    this.upsert = db.prepare<[string, number, number, string]>(
      `INSERT INTO aggregate_snapshots (stream_id, version, sequence, state) VALUES (?, ?, ?, ?)
       ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version,
         sequence = excluded.sequence, state = excluded.state
       WHERE excluded.version > aggregate_snapshots.version`,
    );
  }

  read(streamId: string): AggregateSnapshot | null {
    const row = this.select.get(streamId);
    return row === undefined ? null : { streamId, ...row };
  }

  save(snapshot: AggregateSnapshot): void {
    this.upsert.run(snapshot.streamId, snapshot.version, snapshot.sequence, snapshot.state);
  }
}
