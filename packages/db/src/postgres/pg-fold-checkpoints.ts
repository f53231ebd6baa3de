import type { FoldCheckpoint, FoldCheckpointPosition } from "../event-store.ts";
import { checkpointsToThin } from "../fold-checkpoint-thinning.ts";
import type { FoldCheckpointTable } from "../store-base.ts";
import type { PgPool } from "./connection.ts";

/**
 * B8: past-read fold checkpoints through the read pool (never the writer's connection, so a
 * large body never holds up a batch of appends).
 */
export class PgFoldCheckpoints implements FoldCheckpointTable {
  constructor(private readonly pool: PgPool) {}

  async read(
    streamId: string,
    format: string,
    upToSequence: number,
    aboveVersion: number,
  ): Promise<FoldCheckpoint | null> {
    const { rows } = await this.pool.query<{ version: number; sequence: string; body: string }>(
      `SELECT version, sequence, body FROM fold_checkpoints
       WHERE stream_id = $1 AND format = $2 AND sequence <= $3 AND version > $4
       ORDER BY version DESC LIMIT 1`,
      [streamId, format, upToSequence, aboveVersion],
    );
    const row = rows[0];
    if (row === undefined) return null;
    const { version, body } = row;
    return { streamId, format, version, sequence: Number(row.sequence), body };
  }

  async save(checkpoint: FoldCheckpoint, keep: number): Promise<void> {
    const { streamId, version, sequence, format, body } = checkpoint;
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      // Instances that thin one stream at once take turns (otherwise both might drop one each).
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`fold:${streamId}`]);
      // The log below a committed position never changes, so one already there is as good.
      await client.query(
        `INSERT INTO fold_checkpoints (stream_id, version, sequence, format, body)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (stream_id, version) DO NOTHING`,
        [streamId, version, sequence, format, body],
      );
      await client.query("DELETE FROM fold_checkpoints WHERE stream_id = $1 AND format <> $2", [
        streamId,
        format,
      ]);
      const { rows } = await client.query<{ version: number }>(
        "SELECT version FROM fold_checkpoints WHERE stream_id = $1 ORDER BY version",
        [streamId],
      );
      const drop = checkpointsToThin(
        rows.map((row) => row.version),
        keep,
      );
      if (drop.length > 0) {
        await client.query(
          "DELETE FROM fold_checkpoints WHERE stream_id = $1 AND version = ANY($2::int[])",
          [streamId, drop],
        );
      }
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async positions(streamId: string, format: string): Promise<FoldCheckpointPosition[]> {
    const { rows } = await this.pool.query<{ version: number; sequence: string }>(
      `SELECT version, sequence FROM fold_checkpoints WHERE stream_id = $1 AND format = $2
       ORDER BY version`,
      [streamId, format],
    );
    return rows.map((row) => ({ version: row.version, sequence: Number(row.sequence) }));
  }
}
