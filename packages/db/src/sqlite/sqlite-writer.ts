import {
  type AppendOutcome,
  appendedOutcome,
  fencedOut,
  replayedOutcome,
  staleVersion,
  storedEvents,
} from "../append-outcome.ts";
import type Database from "better-sqlite3";
import type { ReceiptRow as StoredReceiptRow } from "../command-receipt.ts";
import type { SqliteDatabase } from "./connection.ts";
import type { PreparedAppend } from "../prepare-append.ts";
import { ProjectionWriter } from "./projection-writer.ts";

export type { AppendOutcome };

type ReceiptRow = Omit<StoredReceiptRow, "stream_id">;

type Statement<P extends unknown[], R = unknown> = Database.Statement<P, R>;

/**
 * Writes a batch of prepared appends in one IMMEDIATE transaction through prepared statements.
 * Each append is checked in order against the state left by the ones before it, so a duplicate
 * command id or a stale version inside the same batch behaves exactly as across batches.
 */
export class SqliteWriter {
  private readonly head: Statement<[], number>;
  private readonly version: Statement<[string], number>;
  private readonly upsertStream: Statement<[string, number]>;
  private readonly insertEvent: Statement<
    [number, string, number, string, string, string | null, string, string | null]
  >;
  private readonly findReceipt: Statement<[string], ReceiptRow>;
  private readonly insertReceipt: Statement<
    [string, string, number, number, number, string, string, string]
  >;
  private readonly dropIntent: Statement<[string]>;
  private readonly rows: ProjectionWriter;
  private readonly commitTransaction: (
    batch: readonly PreparedAppend[],
    at: string,
  ) => AppendOutcome[];

  constructor(
    db: SqliteDatabase,
    private readonly leaseOwner: (lease: string) => string | null,
  ) {
    this.rows = new ProjectionWriter(db);
    this.head = db.prepare<[], number>("SELECT COALESCE(MAX(sequence), 0) FROM events").pluck();
    this.version = db
      .prepare<[string], number>("SELECT version FROM streams WHERE stream_id = ?")
      .pluck();
    this.upsertStream = db.prepare<[string, number]>(
      `INSERT INTO streams (stream_id, version) VALUES (?, ?)
       ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version`,
    );
    this.insertEvent = db.prepare<
      [number, string, number, string, string, string | null, string, string | null]
    >(
      `INSERT INTO events (sequence, stream_id, stream_version, type, data, command_id, recorded_at,
         raw_event_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.findReceipt = db.prepare<[string], ReceiptRow>(
      `SELECT first_sequence, last_sequence, stream_version, receipt, procedure, payload_hash
       FROM command_receipts WHERE command_id = ?`,
    );
    this.insertReceipt = db.prepare<
      [string, string, number, number, number, string, string, string]
    >(
      `INSERT INTO command_receipts (command_id, stream_id, first_sequence, last_sequence,
         stream_version, receipt, procedure, payload_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.dropIntent = db.prepare<[string]>("DELETE FROM command_intents WHERE command_id = ?");
    this.commitTransaction = db.transaction((batch: readonly PreparedAppend[], at: string) => {
      let next = (this.head.get() ?? 0) + 1;
      return batch.map((append) => {
        const outcome = this.applyOne(append, next, at);
        if (outcome.ok && !outcome.result.duplicate) next = outcome.result.lastSequence + 1;
        return outcome;
      });
    }).immediate;
  }

  /** Commits the batch or throws (then nothing of it was written). */
  commit(batch: readonly PreparedAppend[], recordedAt: string): AppendOutcome[] {
    return this.commitTransaction(batch, recordedAt);
  }

  private applyOne(append: PreparedAppend, firstSequence: number, at: string): AppendOutcome {
    if (append.commandId !== null) {
      const known = this.findReceipt.get(append.commandId);
      if (known !== undefined) {
        return replayedOutcome(
          {
            firstSequence: known.first_sequence,
            lastSequence: known.last_sequence,
            streamVersion: known.stream_version,
            receiptJson: known.receipt,
            procedure: known.procedure,
            payloadHash: known.payload_hash,
          },
          append,
        );
      }
    }
    const fenced = fencedOut(append, this.leaseOwner);
    if (fenced !== null) return { ok: false, error: fenced };
    const current = this.version.get(append.streamId) ?? 0;
    const stale = staleVersion(append, current);
    if (stale !== null) return { ok: false, error: stale };
    const events = storedEvents(append, firstSequence, current, at);
    for (let i = 0; i < events.length; i += 1) {
      const stored = events[i]!;
      this.insertEvent.run(
        stored.sequence,
        stored.streamId,
        stored.streamVersion,
        stored.type,
        append.events[i]!.json,
        stored.commandId,
        at,
        append.events[i]!.rawEventId,
      );
    }
    const outcome = appendedOutcome(append, events, firstSequence, current);
    const { lastSequence, streamVersion } = outcome.result;
    this.upsertStream.run(append.streamId, streamVersion);
    for (const write of append.projections) this.rows.apply(write, lastSequence);
    if (append.commandId !== null) {
      this.insertReceipt.run(
        append.commandId,
        append.streamId,
        firstSequence,
        lastSequence,
        streamVersion,
        append.receiptJson,
        append.procedure,
        append.payloadHash,
      );
      // The receipt now answers for the command: its intent (if any) is done.
      this.dropIntent.run(append.commandId);
    }
    return outcome;
  }
}
