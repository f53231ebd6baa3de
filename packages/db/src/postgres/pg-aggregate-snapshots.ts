import type { AggregateSnapshot } from "../event-store.ts";
import type { AggregateSnapshotTable } from "../store-base.ts";
import type { PgPool } from "./connection.ts";

/** Issue 20: aggregate snapshots, one statement each through the pool. */
export class PgAggregateSnapshots implements AggregateSnapshotTable {
  constructor(private readonly pool: PgPool) {}

  async read(streamId: string): Promise<AggregateSnapshot | null> {
    const { rows } = await this.pool.query<{ version: number; sequence: string; state: string }>(
      "SELECT version, sequence, state FROM aggregate_snapshots WHERE stream_id = $1",
      [streamId],
    );
    const row = rows[0];
    if (row === undefined) return null;
    return { streamId, version: row.version, sequence: Number(row.sequence), state: row.state };
  }

  async save(snapshot: AggregateSnapshot): Promise<void> {
    // An older snapshot never replaces a newer one (instances may race on one stream).
    await this.pool.query(
      `INSERT INTO aggregate_snapshots (stream_id, version, sequence, state)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version,
         sequence = excluded.sequence, state = excluded.state
       WHERE excluded.version > aggregate_snapshots.version`,
      [snapshot.streamId, snapshot.version, snapshot.sequence, snapshot.state],
    );
  }
}
