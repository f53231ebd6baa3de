import { ConcurrencyError, type EventStore } from "@skein/db";
import {
  type AggregateState,
  aggregateKindOfStream,
  type Command,
  type CommandId,
  commandStreamId,
  type DecideContext,
  type DomainEvent,
  decide,
  evolve,
  type IdSource,
  initialStateFor,
  type ProjectionWrite,
  projectEvent,
  type ProjectState,
  projectStreamId,
  type SessionState,
  type ThreadId,
  type ThreadState,
  threadStreamId,
} from "@skein/domain";
import { KeyedQueue } from "./keyed-queue.ts";

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
  return others;
}

type Entry = { state: AggregateState; version: number };

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
  private readonly queue = new KeyedQueue();

  constructor(
    private readonly store: EventStore,
    private readonly clock: () => Date,
    private readonly ids: IdSource,
    private readonly cacheLimit = 2_000,
  ) {}

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
    return this.cache.get(threadStreamId(threadId))?.state as ThreadState | undefined;
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
  private async preloadContext(command: Command): Promise<DecideContext> {
    const others = contextThreads(command);
    const loaded = new Map<ThreadId, ThreadState>();
    // Raw loads, not queued reads: a command queued on another stream that in turn waited for
    // this one would deadlock. These states are only read by decide.
    for (const id of others)
      loaded.set(id, (await this.load(threadStreamId(id))).state as ThreadState);
    return {
      readThread: (id) =>
        loaded.get(id) ?? (this.cache.get(threadStreamId(id))?.state as ThreadState | undefined),
    };
  }

  /** Decides and appends one command; throws the domain error when it is rejected. */
  execute(
    command: Command,
    options: { commandId?: string; receipt?: unknown } = {},
  ): Promise<ExecuteResult> {
    const streamId = commandStreamId(command);
    return this.queue.run(streamId, async () => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await this.attempt(command, streamId, options);
        } catch (error) {
          if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw error;
          // Threads read as context may be just as stale as the stream itself.
          for (const id of contextThreads(command)) this.cache.delete(threadStreamId(id));
        }
      }
    });
  }

  /**
   * Drops the cached state of a thread and reloads it from the log: for callers about to act on
   * a thread another instance may have changed (taking over its runtime, re-checking its queue).
   */
  refreshThread(threadId: ThreadId): Promise<ThreadState> {
    const streamId = threadStreamId(threadId);
    return this.queue.run(streamId, async () => {
      this.cache.delete(streamId);
      return (await this.load(streamId)).state as ThreadState;
    });
  }

  private async attempt(
    command: Command,
    streamId: string,
    options: { commandId?: string; receipt?: unknown },
  ): Promise<ExecuteResult> {
    if (options.commandId) {
      const stored = await this.store.findReceipt(options.commandId);
      if (stored) {
        return {
          events: [],
          sequence: stored.lastSequence,
          receipt: stored.receipt,
          duplicate: true,
        };
      }
    }
    const context = await this.preloadContext(command);
    const entry = await this.load(streamId);
    const commandId = (options.commandId ?? this.ids.next("command")) as CommandId;
    const meta = { commandId, at: this.clock().toISOString(), ids: this.ids };
    const result = decide(command, entry.state, meta, context);
    if (!result.ok) throw result.error;
    if (result.events.length === 0) {
      return {
        events: [],
        sequence: await this.store.headSequence(),
        receipt: options.receipt ?? null,
        duplicate: false,
      };
    }
    const projections: ProjectionWrite[] = [];
    for (const event of result.events) {
      evolve(entry.state, event);
      projections.push(...projectEvent(entry.state, event));
    }
    try {
      const appended = await this.store.append(streamId, entry.version, result.events, {
        commandId: options.commandId,
        projections,
        receipt: options.receipt ?? null,
      });
      entry.version = appended.streamVersion;
      if (appended.duplicate) this.cache.delete(streamId);
      return {
        events: appended.duplicate ? [] : result.events,
        sequence: appended.lastSequence,
        receipt: appended.receipt,
        duplicate: appended.duplicate,
      };
    } catch (error) {
      this.cache.delete(streamId);
      throw error;
    }
  }

  private async load(streamId: string): Promise<Entry> {
    const cached = this.cache.get(streamId);
    if (cached) {
      // Re-insert to keep Map order as recency for eviction.
      this.cache.delete(streamId);
      this.cache.set(streamId, cached);
      return cached;
    }
    const state = initialStateFor(aggregateKindOfStream(streamId));
    const events = await this.store.readStream(streamId);
    for (const stored of events)
      evolve(state, { type: stored.type, data: stored.data } as DomainEvent);
    const entry = { state, version: events.at(-1)?.streamVersion ?? 0 };
    // Another load may have raced us while reading; keep the first one so callers share state.
    const raced = this.cache.get(streamId);
    if (raced) return raced;
    this.cache.set(streamId, entry);
    this.evict();
    return entry;
  }

  private evict(): void {
    while (this.cache.size > this.cacheLimit) {
      const oldest = this.cache.keys().next().value;
      if (oldest === undefined) return;
      this.cache.delete(oldest);
    }
  }
}
