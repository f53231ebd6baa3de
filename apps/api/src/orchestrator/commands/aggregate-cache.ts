import type { EventStore } from "@skein/db";
import {
  aggregateKindOfStream,
  type AggregateState,
  type Command,
  type DecideContext,
  type DomainEvent,
  evolve,
  HistoryNeeded,
  initialStateFor,
  restoreCompactState,
  restoreState,
  serializeCompactState,
  serializeState,
  type ThreadId,
  type ThreadState,
  threadStreamId,
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

/** Threads a command reads besides its own (fork source, merge-back fork, subagent parent). */
function contextThreads(command: Command): ThreadId[] {
  const others: ThreadId[] = [];
  if (command.type === "ForkThread") others.push(command.data.sourceThreadId);
  if (command.type === "QueueRun" && command.data.bringBackFrom) {
    others.push(command.data.bringBackFrom);
  }
  if (command.type === "CreateThread" && command.data.parentThreadId) {
    others.push(command.data.parentThreadId);
  }
  if (command.type === "RecordCodeBroughtBack") others.push(command.data.forkThreadId);
  return others;
}

const contextStreams = (commands: readonly Command[]) =>
  commands.flatMap((command) => contextThreads(command).map(threadStreamId));

/**
 * The command path's aggregates, as the log holds them: a bounded, most-recently-used cache of
 * states, loaded from the stream's aggregate snapshot (issue 20: its newest whole state or, for
 * long threads, a compact one) plus the events after it, and snapshots written back as the states
 * advance. Snapshots are a cache of the log: losing one only costs a longer replay. Callers
 * serialize access per stream (the repository's queue).
 */
export class AggregateCache {
  private readonly entries = new Map<string, Entry>();
  /** Version of the compact snapshot this instance last wrote per thread. */
  private readonly compactVersions = new Map<string, number>();

  constructor(
    private readonly store: EventStore,
    private readonly limit: number,
    private readonly snapshotEvery: number,
  ) {}

  /** The cached full state of a stream without loading it (may be absent). */
  peek(streamId: string): AggregateState | undefined {
    const entry = this.entries.get(streamId);
    return entry && !entry.compact ? entry.state : undefined;
  }

  /**
   * A stream's cached or loaded state. `full: false` lets a thread load from its compact
   * snapshot (for deciding commands); every other reader gets the full state.
   */
  async load(streamId: string, full = true): Promise<Entry> {
    const cached = this.entries.get(streamId);
    if (cached && !(full && cached.compact)) {
      // Re-insert to keep Map order as recency for eviction.
      this.entries.delete(streamId);
      this.entries.set(streamId, cached);
      return cached;
    }
    const entry =
      (!full && (await this.fromCompactSnapshot(streamId))) || (await this.fromSnapshot(streamId));
    // Another load may have raced us while reading; keep the first one so callers share state.
    const raced = this.entries.get(streamId);
    if (raced && !(raced.compact && !entry.compact)) return raced;
    this.entries.set(streamId, entry);
    this.evict();
    await this.saveWhenDue(streamId, entry);
    return entry;
  }

  /** A cached state brought up to the log (the events appended elsewhere), or a fresh load. */
  async refresh(streamId: string): Promise<AggregateState> {
    const cached = this.entries.get(streamId);
    if (!cached || cached.compact) return (await this.load(streamId)).state;
    await this.catchUp(cached, streamId);
    return cached.state;
  }

  /** What `decide` reads of the threads a command names besides its own stream. */
  async contextOf(command: Command, full: boolean): Promise<DecideContext> {
    const loaded = new Map<ThreadId, ThreadState>();
    // Raw loads, not queued reads: a command queued on another stream that in turn waited for
    // this one would deadlock. These states are only read by decide.
    for (const id of contextThreads(command)) {
      loaded.set(id, (await this.load(threadStreamId(id), full)).state as ThreadState);
    }
    return {
      // A compact state nobody preloaded could not be escalated: read as not cached.
      readThread: (id) =>
        loaded.get(id) ?? (this.peek(threadStreamId(id)) as ThreadState | undefined),
    };
  }

  /**
   * Whether a committed state has a snapshot to write now (see `saveWhenDue`), for the caller to
   * schedule `saveCached` off the command's path. A thread with a run in flight or queued waits
   * for its run to end, unless it fell twice the interval behind (a thread that never idles still
   * gets snapshots): the write is a serialization of the whole state, best kept out of a turn.
   */
  snapshotDue(streamId: string, entry: Entry): boolean {
    if (entry.compact) return false;
    const state = entry.state;
    const busy =
      state.kind === "thread" && (state.activeRunId !== null || state.queuedRunIds.size > 0);
    const slack = busy ? 2 : 1;
    const lag = Math.max(1, Math.floor(this.snapshotEvery / 10));
    const compactDue =
      state.kind === "thread" &&
      entry.version >= COMPACT_FROM_EVENTS &&
      entry.version - (this.compactVersions.get(streamId) ?? 0) >= lag * slack;
    return compactDue || entry.version - entry.snapshotVersion >= this.snapshotEvery * slack;
  }

  /**
   * Writes the due snapshots of a stream's cached state. Callers run it on the stream's turn of
   * the queue, where the cached state is the committed one (a command evolves it in place only
   * during its own turn, and one that fails drops it).
   */
  async saveCached(streamId: string): Promise<void> {
    const entry = this.entries.get(streamId);
    if (entry !== undefined) await this.saveWhenDue(streamId, entry);
  }

  /** Forgets a stream's state (evolved in place by a command that did not commit). */
  drop(streamId: string): void {
    this.entries.delete(streamId);
  }

  /**
   * Forgets the compact states a batch was decided on (its stream's and its context threads'),
   * so it is decided again on full ones: a compact state could not answer.
   */
  dropCompact(streamId: string, commands: readonly Command[]): void {
    for (const id of [streamId, ...contextStreams(commands)]) {
      if (this.entries.get(id)?.compact) this.entries.delete(id);
    }
  }

  /** Forgets the context threads' states: as stale as the stream when another instance appended. */
  dropContext(commands: readonly Command[]): void {
    for (const id of contextStreams(commands)) this.entries.delete(id);
  }

  /** Evolves an entry with the stream's events it has not seen (appended elsewhere). */
  private async catchUp(entry: Entry, streamId: string): Promise<void> {
    const newer = await this.store.readStream(streamId, entry.sequence);
    for (const stored of newer) {
      if (stored.streamVersion <= entry.version) continue;
      evolve(entry.state, { type: stored.type, data: stored.data } as DomainEvent);
      entry.version = stored.streamVersion;
      entry.sequence = stored.sequence;
    }
  }

  /** The stored snapshot's state (or the initial one) brought up to the log. */
  private async fromSnapshot(streamId: string): Promise<Entry> {
    const kind = aggregateKindOfStream(streamId);
    const stored = await this.store.readAggregateSnapshot(streamId);
    const state = stored ? restoreState(stored.state, kind) : null;
    const entry: Entry =
      stored && state
        ? {
            state,
            version: stored.version,
            sequence: stored.sequence,
            snapshotVersion: stored.version,
            compact: false,
          }
        : {
            state: initialStateFor(kind),
            version: 0,
            sequence: 0,
            snapshotVersion: 0,
            compact: false,
          };
    await this.catchUp(entry, streamId);
    return entry;
  }

  /** A thread's compact snapshot brought up to the log, or null when that needs the history. */
  private async fromCompactSnapshot(streamId: string): Promise<Entry | null> {
    if (aggregateKindOfStream(streamId) !== "thread") return null;
    const stored = await this.store.readAggregateSnapshot(compactStreamOf(streamId));
    const state = stored ? restoreCompactState(stored.state) : null;
    if (!stored || !state) return null;
    const entry: Entry = {
      state,
      version: stored.version,
      sequence: stored.sequence,
      snapshotVersion: Number.POSITIVE_INFINITY,
      compact: true,
    };
    try {
      await this.catchUp(entry, streamId);
      return entry;
    } catch (error) {
      if (error instanceof HistoryNeeded) return null;
      throw error;
    }
  }

  /**
   * Stores the committed state once enough events followed the last snapshot, and a long
   * thread's compact snapshot whenever the stored one lags by `snapshotEvery / 10` events or
   * more. Only committed, full states are written (a compact one lacks the history); a failed
   * write only costs a longer replay.
   */
  private async saveWhenDue(streamId: string, entry: Entry): Promise<void> {
    if (entry.compact) return;
    const lag = Math.max(1, Math.floor(this.snapshotEvery / 10));
    const compactDue =
      entry.state.kind === "thread" &&
      entry.version >= COMPACT_FROM_EVENTS &&
      entry.version - (this.compactVersions.get(streamId) ?? 0) >= lag;
    if (compactDue) {
      const version = entry.version;
      const compact = () => serializeCompactState(entry.state as ThreadState);
      const saved = await this.save(compactStreamOf(streamId), entry, compact);
      if (saved) this.compactVersions.set(streamId, version);
    }
    if (entry.version - entry.snapshotVersion < this.snapshotEvery) return;
    const version = entry.version;
    if (await this.save(streamId, entry, () => serializeState(entry.state))) {
      entry.snapshotVersion = Math.max(entry.snapshotVersion, version);
    }
  }

  private async save(
    snapshotStreamId: string,
    entry: Entry,
    serialized: () => string,
  ): Promise<boolean> {
    try {
      await this.store.saveAggregateSnapshot({
        streamId: snapshotStreamId,
        version: entry.version,
        sequence: entry.sequence,
        state: serialized(),
      });
      return true;
    } catch {
      // A cache of the log: the next load replays a little more.
      return false;
    }
  }

  private evict(): void {
    while (this.entries.size > this.limit) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) return;
      this.entries.delete(oldest);
      this.compactVersions.delete(oldest);
    }
  }
}
