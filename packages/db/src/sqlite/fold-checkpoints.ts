import type { FoldCheckpoint, FoldCheckpointPosition } from "../event-store.ts";
import { checkpointsToThin } from "../fold-checkpoint-thinning.ts";
import type { FoldCheckpointTable } from "../store-base.ts";
import type { SqliteDatabase } from "./connection.ts";

type Row = { version: number; sequence: number; body: string };

/**
 * B8: past-read fold checkpoints on the writer connection (synchronous, between commits). The
 * callers write them in the background, never inside an append.
 */
export class SqliteFoldCheckpoints implements FoldCheckpointTable {
  private readonly select;
  private readonly insert;
  private readonly dropOtherFormats;
  private readonly list;
  private readonly drop;
  private readonly saveAndThin;

  constructor(db: SqliteDatabase) {
    this.select = db.prepare<[string, string, number, number], Row>(
      `SELECT version, sequence, body FROM fold_checkpoints
       WHERE stream_id = ? AND format = ? AND sequence <= ? AND version > ?
       ORDER BY version DESC LIMIT 1`,
    );
    // The log below a committed position never changes, so one already there is as good.
    this.insert = db.prepare<[string, number, number, string, string]>(
      `INSERT INTO fold_checkpoints (stream_id, version, sequence, format, body)
       VALUES (?, ?, ?, ?, ?) ON CONFLICT (stream_id, version) DO NOTHING`,
    );
    this.dropOtherFormats = db.prepare<[string, string]>(
      "DELETE FROM fold_checkpoints WHERE stream_id = ? AND format <> ?",
    );
    this.list = db.prepare<[string, string], FoldCheckpointPosition>(
      `SELECT version, sequence FROM fold_checkpoints WHERE stream_id = ? AND format = ?
       ORDER BY version`,
    );
    this.drop = db.prepare<[string, number]>(
      "DELETE FROM fold_checkpoints WHERE stream_id = ? AND version = ?",
    );
    this.saveAndThin = db.transaction((checkpoint: FoldCheckpoint, keep: number) => {
      const { streamId, version, sequence, format, body } = checkpoint;
      this.insert.run(streamId, version, sequence, format, body);
      this.dropOtherFormats.run(streamId, format);
      const versions = this.list.all(streamId, format).map((row) => row.version);
      for (const old of checkpointsToThin(versions, keep)) this.drop.run(streamId, old);
    });
  }

  read(
    streamId: string,
    format: string,
    upToSequence: number,
    aboveVersion: number,
  ): FoldCheckpoint | null {
    const row = this.select.get(streamId, format, upToSequence, aboveVersion);
    return row === undefined ? null : { streamId, format, ...row };
  }

  save(checkpoint: FoldCheckpoint, keep: number): void {
    this.saveAndThin.immediate(checkpoint, keep);
  }

  positions(streamId: string, format: string): FoldCheckpointPosition[] {
    return this.list.all(streamId, format);
  }
}
