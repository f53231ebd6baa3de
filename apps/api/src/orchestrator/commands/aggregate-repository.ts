import { inSpan } from "../../tracing/spans.ts";
import {
  type AppendFence,
  ConcurrencyError,
  type EventStore,
  type ReceiptBinding,
} from "@skein/db";
import {
  type AggregateState,
  type Command,
  type CommandId,
  commandStreamId,
  type DecideContext,
  type DomainEvent,
  decide,
  evolve,
  HistoryNeeded,
  type IdSource,
  lastWritePerRow,
  type ProjectionWrite,
  projectEvent,
  type ProjectState,
  projectStreamId,
  type SessionState,
  type ThreadId,
  type ThreadState,
  threadStreamId,
} from "@skein/domain";
import { refuseOtherBinding } from "./command-gate.ts";
import {
  AggregateSnapshots,
  COMPACT_FROM_EVENTS,
  type Entry,
  SNAPSHOT_EVERY_EVENTS,
} from "./aggregate-snapshots.ts";
import { KeyedQueue } from "@skein/concurrency";

export { COMPACT_FROM_EVENTS, SNAPSHOT_EVERY_EVENTS };

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

/**
 * How a command's append answers for its command id: the receipt stored with it (or built from
 * the decided events, for ids the domain assigns) and what the id is bound to (B3).
 */
export type ExecuteOptions = {
  commandId?: string;
  /** Appended only while this instance holds the runtime lease (see lease-fence.ts). */
  fence?: AppendFence;
  receipt?: unknown | ((events: readonly DomainEvent[]) => unknown);
  binding?: ReceiptBinding;
};

/**
 * Attempts per command when another instance appended to the stream first (our cached state was
 * stale): each retry reloads the stream and decides again, so the domain judges fresh state.
 */
const MAX_ATTEMPTS = 3;

export type ExecuteResult = {
  events: DomainEvent[];
  /** Sequence of the command's last event (or of the stored receipt for a retry). */
  sequence: number;
  receipt: unknown;
  duplicate: boolean;
};

/**
 * Loads aggregates from the log, keeps a bounded cache of them, and runs every command through
 * `decide` → `evolve`/`projectEvent` → one `append` (events, projection rows and receipt in one
 * transaction). Commands on one stream are serialized, so in-process callers never race for a
 * version; a failed append drops the cached state, since evolve already updated it in place.
 * Other instances sharing the store can still append in between: a `ConcurrencyError` reloads
 * the stream and decides again (a command id already applied meanwhile returns its receipt).
 */
export class AggregateRepository {
  private readonly cache = new Map<string, Entry>();
  private readonly snapshots: AggregateSnapshots;
  private readonly queue = new KeyedQueue();

  constructor(
    private readonly store: EventStore,
    private readonly clock: () => Date,
    private readonly ids: IdSource,
    private readonly cacheLimit = 2_000,
    snapshotEvery = SNAPSHOT_EVERY_EVENTS,
  ) {
    this.snapshots = new AggregateSnapshots(store, snapshotEvery);
  }

  /**
   * A thread's committed state. Reads queue behind the stream's pending commands because
   * `execute` evolves the cached state before its append commits; reading in between would let
   * a caller act on something the log does not hold yet.
   */
  async thread(threadId: ThreadId): Promise<ThreadState> {
    return (await this.committed(threadStreamId(threadId))).state as ThreadState;
  }

  /** The cached state of a thread without loading it (sync callers only; may be absent). */
  peekThread(threadId: ThreadId): ThreadState | undefined {
    const entry = this.cache.get(threadStreamId(threadId));
    return entry && !entry.compact ? (entry.state as ThreadState) : undefined;
  }

  async project(projectId: string): Promise<ProjectState> {
    return (await this.committed(projectStreamId(projectId))).state as ProjectState;
  }

  async session(streamId: string): Promise<SessionState> {
    return (await this.committed(streamId)).state as SessionState;
  }

  private committed(streamId: string): Promise<Entry> {
    return this.queue.run(streamId, () => this.load(streamId));
  }

  /** Threads a command reads besides its own (fork source, merge-back fork, subagent parent). */
  private async preloadContext(command: Command, full: boolean): Promise<DecideContext> {
    const others = contextThreads(command);
    const loaded = new Map<ThreadId, ThreadState>();
    // Raw loads, not queued reads: a command queued on another stream that in turn waited for
    // this one would deadlock. These states are only read by decide.
    for (const id of others)
      loaded.set(id, (await this.load(threadStreamId(id), full)).state as ThreadState);
    return {
      readThread: (id) => {
        const cached = this.cache.get(threadStreamId(id));
        // A compact state nobody preloaded could not be escalated: read as not cached.
        const other = cached && !cached.compact ? (cached.state as ThreadState) : undefined;
        return loaded.get(id) ?? other;
      },
    };
  }

  /** Decides and appends one command; throws the domain error when it is rejected. */
  execute(command: Command, options: ExecuteOptions = {}): Promise<ExecuteResult> {
    return this.executeBatch([command], options);
  }

  /**
   * Decides commands on one stream in order, each against the state the previous ones left, and
   * appends all their events in one transaction: a workflow step that records several facts at
   * once (a run start) commits all of them or none. Throws the first domain error.
   */
  executeBatch(commands: readonly Command[], options: ExecuteOptions = {}): Promise<ExecuteResult> {
    const first = commands[0];
    if (!first) throw new Error("executeBatch needs at least one command");
    const streamId = commandStreamId(first);
    for (const command of commands) {
      if (commandStreamId(command) !== streamId) {
        throw new Error(`one batch appends to one stream: ${command.type} is not on ${streamId}`);
      }
    }
    const types = commands.map((command) => command.type).join("+");
    const attributes = { "skein.command": types, "skein.stream": streamId };
    return inSpan(`decide+append ${types}`, attributes, () =>
      this.executeQueued(commands, streamId, options),
    );
  }

  private executeQueued(
    commands: readonly Command[],
    streamId: string,
    options: ExecuteOptions,
  ): Promise<ExecuteResult> {
    return this.queue.run(streamId, async () => {
      let full = false;
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await this.attempt(commands, streamId, options, full);
        } catch (error) {
          if (error instanceof HistoryNeeded && !full) {
            // A compact state could not answer: decide again on the full ones (nothing was
            // appended; the compact states evolved in place are dropped).
            this.dropCompact(streamId);
            for (const command of commands) {
              for (const id of contextThreads(command)) this.dropCompact(threadStreamId(id));
            }
            full = true;
            attempt -= 1;
            continue;
          }
          if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw error;
          // Threads read as context may be just as stale as the stream itself.
          for (const command of commands) {
            for (const id of contextThreads(command)) this.cache.delete(threadStreamId(id));
          }
        }
      }
    });
  }

  /**
   * Brings a thread's state up to the log: for callers about to act on a thread another instance
   * may have changed (taking over its runtime, re-checking its queue). A cached state reads only
   * the events appended after it, so the cost follows what changed, not the thread's history.
   */
  refreshThread(threadId: ThreadId): Promise<ThreadState> {
    return this.refreshStream(threadStreamId(threadId)) as Promise<ThreadState>;
  }

  /** refreshThread for any stream (an import appends project and session streams too). */
  refreshStream(streamId: string): Promise<AggregateState> {
    return this.queue.run(streamId, async () => {
      const cached = this.cache.get(streamId);
      if (!cached || cached.compact) return (await this.load(streamId)).state;
      await this.catchUp(cached, streamId);
      return cached.state;
    });
  }

  /** Evolves a cached entry with the stream's events it has not seen (appended elsewhere). */
  private async catchUp(entry: Entry, streamId: string): Promise<void> {
    const newer = await this.store.readStream(streamId, entry.sequence);
    for (const stored of newer) {
      if (stored.streamVersion <= entry.version) continue;
      evolve(entry.state, { type: stored.type, data: stored.data } as DomainEvent);
      entry.version = stored.streamVersion;
      entry.sequence = stored.sequence;
    }
  }

  private async attempt(
    commands: readonly Command[],
    streamId: string,
    options: ExecuteOptions,
    full: boolean,
  ): Promise<ExecuteResult> {
    if (options.commandId) {
      const stored = await this.store.findReceipt(options.commandId);
      if (stored) {
        if (options.binding) refuseOtherBinding(options.commandId, stored, options.binding);
        return {
          events: [],
          sequence: stored.lastSequence,
          receipt: stored.receipt,
          duplicate: true,
        };
      }
    }
    const entry = await this.load(streamId, full);
    const events: DomainEvent[] = [];
    const projections: ProjectionWrite[] = [];
    const at = this.clock().toISOString();
    for (const [index, command] of commands.entries()) {
      const context = await this.preloadContext(command, full);
      const commandId = (
        index === 0 && options.commandId ? options.commandId : this.ids.next("command")
      ) as CommandId;
      const result = decide(command, entry.state, { commandId, at, ids: this.ids }, context);
      if (!result.ok) {
        // Earlier commands of the batch already evolved the cached state in place.
        if (index > 0) this.cache.delete(streamId);
        throw result.error;
      }
      for (const event of result.events) {
        evolve(entry.state, event);
        projections.push(...projectEvent(entry.state, event));
      }
      events.push(...result.events);
    }
    const receipt =
      typeof options.receipt === "function" ? options.receipt(events) : options.receipt;
    if (events.length === 0) {
      return {
        events: [],
        sequence: await this.store.headSequence(),
        receipt: receipt ?? null,
        duplicate: false,
      };
    }
    try {
      const appended = await this.store.append(streamId, entry.version, events, {
        commandId: options.commandId,
        projections: lastWritePerRow(projections),
        receipt: receipt ?? null,
        ...(options.commandId && options.binding ? { binding: options.binding } : {}),
        ...(options.fence ? { fence: options.fence } : {}),
      });
      entry.version = appended.streamVersion;
      entry.sequence = appended.lastSequence;
      if (appended.duplicate) this.cache.delete(streamId);
      else await this.snapshots.maybeSave(streamId, entry);
      return {
        events: appended.duplicate ? [] : events,
        sequence: appended.lastSequence,
        receipt: appended.receipt,
        duplicate: appended.duplicate,
      };
    } catch (error) {
      this.cache.delete(streamId);
      throw error;
    }
  }

  private dropCompact(streamId: string): void {
    if (this.cache.get(streamId)?.compact) this.cache.delete(streamId);
  }

  /**
   * A stream's cached or loaded state. `full: false` lets a thread load from its compact
   * snapshot (for deciding commands); every other reader gets the full state.
   */
  private async load(streamId: string, full = true): Promise<Entry> {
    const cached = this.cache.get(streamId);
    if (cached && !(full && cached.compact)) {
      // Re-insert to keep Map order as recency for eviction.
      this.cache.delete(streamId);
      this.cache.set(streamId, cached);
      return cached;
    }
    const entry =
      (!full && (await this.fromCompactSnapshot(streamId))) || (await this.loadFull(streamId));
    // Another load may have raced us while reading; keep the first one so callers share state.
    const raced = this.cache.get(streamId);
    if (raced && !(raced.compact && !entry.compact)) return raced;
    this.cache.set(streamId, entry);
    this.evict();
    await this.snapshots.maybeSave(streamId, entry);
    return entry;
  }

  private async loadFull(streamId: string): Promise<Entry> {
    const entry = await this.snapshots.read(streamId);
    await this.catchUp(entry, streamId);
    return entry;
  }

  /** A thread's compact snapshot brought up to the log, or null when that needs the history. */
  private async fromCompactSnapshot(streamId: string): Promise<Entry | null> {
    const entry = await this.snapshots.readCompact(streamId);
    if (!entry) return null;
    try {
      await this.catchUp(entry, streamId);
      return entry;
    } catch (error) {
      if (error instanceof HistoryNeeded) return null;
      throw error;
    }
  }

  private evict(): void {
    while (this.cache.size > this.cacheLimit) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) return;
      this.cache.delete(oldest);
      this.snapshots.forget(oldest);
    }
  }
}
