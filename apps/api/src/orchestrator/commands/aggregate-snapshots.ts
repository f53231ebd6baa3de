import type { EventStore } from "@skein/db";
import {
  aggregateKindOfStream,
  type AggregateState,
  initialStateFor,
  restoreCompactState,
  restoreState,
  serializeCompactState,
  serializeState,
} from "@skein/domain";

/**
 * A cached aggregate: its state after stream version `version`, whose event had `sequence`;
 * `snapshotVersion` is the version of the newest aggregate snapshot stored for it. A `compact`
 * thread state holds only its recent runs (see `serializeCompactState`): commands are decided on
 * it, and whatever needs more (`HistoryNeeded`) loads the full state and decides again.
 */
export type Entry = {
  state: AggregateState;
  version: number;
  sequence: number;
  snapshotVersion: number;
  compact: boolean;
};

/**
 * Issue 20 (item 3): threads this long also get a compact snapshot (stored under
 * `<stream>#compact`), so a command on them loads what recent runs hold, not the whole history.
 */
export const COMPACT_FROM_EVENTS = 200;

const compactStreamOf = (streamId: string) => `${streamId}#compact`;

/**
 * Issue 20: an aggregate snapshot is stored once this many events followed the last one, so a
 * cold load reads one snapshot plus fewer than this many events, however long the stream is.
 */
export const SNAPSHOT_EVERY_EVENTS = 500;

/**
 * Issue 20: the aggregate snapshots stored for the command path — a stream's newest whole state
 * and, for long threads, a compact one (recent runs only) — read on a cold load and written as
 * the state advances. A cache of the log: losing one only costs a longer replay.
 */
export class AggregateSnapshots {
  /** Version of the compact snapshot this instance last wrote per thread. */
  private readonly compactVersions = new Map<string, number>();

  constructor(
    private readonly store: EventStore,
    private readonly every = SNAPSHOT_EVERY_EVENTS,
  ) {}

  /** A thread's stored compact snapshot (the caller reads the events after it), or null. */
  async readCompact(streamId: string): Promise<Entry | null> {
    if (aggregateKindOfStream(streamId) !== "thread") return null;
    const stored = await this.store.readAggregateSnapshot(compactStreamOf(streamId));
    const state = stored ? restoreCompactState(stored.state) : null;
    if (!stored || !state) return null;
    return {
      state,
      version: stored.version,
      sequence: stored.sequence,
      snapshotVersion: Number.POSITIVE_INFINITY,
      compact: true,
    };
  }

  /** The stored snapshot's state (or the initial one); the caller reads the events after it. */
  async read(streamId: string): Promise<Entry> {
    const kind = aggregateKindOfStream(streamId);
    const stored = await this.store.readAggregateSnapshot(streamId);
    const state = stored ? restoreState(stored.state, kind) : null;
    if (stored && state) {
      return {
        state,
        version: stored.version,
        sequence: stored.sequence,
        snapshotVersion: stored.version,
        compact: false,
      };
    }
    const initial = initialStateFor(kind);
    return { state: initial, version: 0, sequence: 0, snapshotVersion: 0, compact: false };
  }

  /**
   * Stores the committed state once enough events followed the last snapshot. Only committed
   * state is ever written (after an append or a load), and a failure only costs a longer replay.
   */
  async maybeSave(streamId: string, entry: Entry): Promise<void> {
    // Only a full state can be written whole or compacted (a compact one lacks the history).
    if (entry.compact) return;
    await this.maybeSaveCompact(streamId, entry);
    if (entry.version - entry.snapshotVersion < this.every) return;
    const version = entry.version;
    try {
      await this.store.saveAggregateSnapshot({
        streamId,
        version,
        sequence: entry.sequence,
        state: serializeState(entry.state),
      });
      entry.snapshotVersion = Math.max(entry.snapshotVersion, version);
    } catch {
      // A cache of the log: the next load replays a little more.
    }
  }

  /**
   * A long thread's compact snapshot, refreshed as often as the full one would be worth it: a
   * command's cold load then reads it and the few events after it. Written from full states only,
   * whenever the stored one lags by `snapshotEvery / 10` events or more.
   */
  private async maybeSaveCompact(streamId: string, entry: Entry): Promise<void> {
    if (entry.state.kind !== "thread" || entry.version < COMPACT_FROM_EVENTS) return;
    const lag = Math.max(1, Math.floor(this.every / 10));
    if (entry.version - (this.compactVersions.get(streamId) ?? 0) < lag) return;
    try {
      await this.store.saveAggregateSnapshot({
        streamId: compactStreamOf(streamId),
        version: entry.version,
        sequence: entry.sequence,
        state: serializeCompactState(entry.state),
      });
      this.compactVersions.set(streamId, entry.version);
    } catch {
      // A cache of the log: the next command loads the full state.
    }
  }

  /** Forgets what it wrote for a stream the repository no longer caches. */
  forget(streamId: string): void {
    this.compactVersions.delete(streamId);
  }
}
