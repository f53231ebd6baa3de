import { type EventStore, type FoldCheckpoint, StoreClosedError } from "@skein/db";
import type { Logger } from "../orchestrator/logger.ts";
import { decodeCheckpoint, encodeCheckpoint, FOLD_FORMAT } from "./fold-codec.ts";
import type { Checkpoint } from "./fold-checkpoint.ts";
import { packBody, unpackBody } from "./fold-packing.ts";

/** Checkpoints kept in the store per stream (thinned by the store, first and newest kept). */
export const STORED_PER_STREAM = 8;

/** Positions remembered as already stored, so a refold does not encode them again. */
const REMEMBERED = 4_096;

/**
 * B8: past-read checkpoints in the event store, so the first past read after a restart
 * continues from the nearest one instead of folding the whole stream. Writing is queued behind
 * the read that produced the checkpoint (never on an append's path), one at a time, and a
 * failure is logged and forgotten: the store holds a cache of the log, nothing more.
 */
export class StoredFolds {
  private pending: Promise<void> = Promise.resolve();
  private readonly stored = new Set<string>();

  constructor(
    private readonly log: Logger,
    private readonly keep = STORED_PER_STREAM,
  ) {}

  /** The stored checkpoint nearest at or below `upTo` and above `aboveVersion`, or null. */
  async load(
    store: EventStore,
    streamId: string,
    upTo: number,
    aboveVersion: number,
  ): Promise<Checkpoint | null> {
    let found: FoldCheckpoint | null;
    try {
      found = await store.readFoldCheckpoint(streamId, FOLD_FORMAT, upTo, aboveVersion);
    } catch (error) {
      // The read goes on from memory or the log; a closed store fails it there.
      if (!(error instanceof StoreClosedError)) {
        this.log.warn({ err: error, streamId }, "past-read checkpoint not read");
      }
      return null;
    }
    if (!found) return null;
    const text = await unpackBody(found.body);
    const checkpoint = text === null ? null : decodeCheckpoint({ ...found, body: text });
    if (!checkpoint) {
      this.log.warn({ streamId, version: found.version }, "past-read checkpoint unreadable");
      return null;
    }
    this.remember(`${streamId}@${found.version}`);
    return checkpoint;
  }

  /** Queues a checkpoint (a kept, never changed copy) to be stored; returns at once. */
  save(store: EventStore, checkpoint: Checkpoint): void {
    const { streamId, version, sequence } = checkpoint.fold;
    const key = `${streamId}@${version}`;
    // A partial one came from the store; only a whole fold can be written again.
    if (checkpoint.partial || this.stored.has(key)) return;
    this.remember(key);
    this.pending = this.pending
      // After the read that kept it has answered.
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(async () => {
        const body = await packBody(encodeCheckpoint(checkpoint));
        return store.saveFoldCheckpoint(
          { streamId, version, sequence, format: FOLD_FORMAT, body },
          this.keep,
        );
      })
      .catch((error: unknown) => {
        this.stored.delete(key);
        if (error instanceof StoreClosedError) return;
        this.log.warn({ err: error, streamId, version }, "past-read checkpoint not stored");
      });
  }

  /** Resolves once every queued checkpoint is stored or given up (tests, benches, shutdown). */
  flush(): Promise<void> {
    return this.pending;
  }

  private remember(key: string): void {
    if (this.stored.size >= REMEMBERED) this.stored.clear();
    this.stored.add(key);
  }
}
