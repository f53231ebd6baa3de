import { endSpan, tracer } from "../../tracing/spans.ts";
import {
  type AppendFence,
  ConcurrencyError,
  type EventStore,
  type ReceiptBinding,
  receiptConflict,
} from "@skein/db";
import {
  type AggregateState,
  type Command,
  type CommandId,
  commandStreamId,
  ConflictError,
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
import { KeyedQueue } from "@skein/concurrency";
import { AggregateCache, type Entry, SNAPSHOT_EVERY_EVENTS } from "./aggregate-cache.ts";

/**
 * How a command's append answers for its command id: the receipt stored with it (or built from
 * the decided events, for ids the domain assigns) and what the id is bound to (B3).
 */
export type ExecuteOptions = {
  commandId?: string;
  /** Appended only while this instance holds the runtime lease (see runs/runner-context.ts). */
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
 * Runs every command through `decide` → `evolve`/`projectEvent` → one `append` (events,
 * projection rows and receipt in one transaction), on aggregates kept by the cache
 * (aggregate-cache.ts). Commands on one stream are serialized, so in-process callers never race
 * for a version; a failed append drops the cached state, since evolve already updated it in place.
 * Other instances sharing the store can still append in between: a `ConcurrencyError` reloads
 * the stream and decides again (a command id already applied meanwhile returns its receipt).
 */
export class AggregateRepository {
  private readonly cache: AggregateCache;
  private readonly queue = new KeyedQueue();
  /** Snapshot writes scheduled per stream (at most one each), see `snapshotLater`. */
  private readonly pendingSnapshots = new Map<string, Promise<void>>();

  constructor(
    private readonly store: EventStore,
    private readonly clock: () => Date,
    private readonly ids: IdSource,
    cacheLimit = 2_000,
    snapshotEvery = SNAPSHOT_EVERY_EVENTS,
  ) {
    this.cache = new AggregateCache(store, cacheLimit, snapshotEvery);
  }

  /**
   * A thread's committed state. Reads queue behind the stream's pending commands because
   * `execute` evolves the cached state before its append commits; reading in between would let
   * a caller act on something the log does not hold yet.
   */
  async thread(threadId: ThreadId): Promise<ThreadState> {
    return (await this.committed(threadStreamId(threadId))) as ThreadState;
  }

  /** The cached state of a thread without loading it (sync callers only; may be absent). */
  peekThread(threadId: ThreadId): ThreadState | undefined {
    return this.cache.peek(threadStreamId(threadId)) as ThreadState | undefined;
  }

  async project(projectId: string): Promise<ProjectState> {
    return (await this.committed(projectStreamId(projectId))) as ProjectState;
  }

  async session(streamId: string): Promise<SessionState> {
    return (await this.committed(streamId)) as SessionState;
  }

  private committed(streamId: string): Promise<AggregateState> {
    return this.queue.run(streamId, async () => (await this.cache.load(streamId)).state);
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
    return this.queue.run(streamId, () => this.cache.refresh(streamId));
  }

  /** Resolves once the aggregate snapshots scheduled so far are written (shutdown, tests). */
  async snapshotsWritten(): Promise<void> {
    await Promise.all(this.pendingSnapshots.values());
  }

  /**
   * Issue 28: a due aggregate snapshot (a cache of the log) is written after the command's
   * answer, not before it: on a later macrotask, so the events' publication and the caller's
   * continuation go first, and on the stream's turn of the queue, so it serializes a committed
   * state. Losing it to a crash or a close only costs a longer replay, as before.
   */
  private snapshotLater(streamId: string, entry: Entry): void {
    if (this.pendingSnapshots.has(streamId) || !this.cache.snapshotDue(streamId, entry)) return;
    const written = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.queue.run(streamId, () => this.cache.saveCached(streamId)))
      .catch(() => {
        // Nothing to undo: the next load replays a little more.
      })
      .finally(() => this.pendingSnapshots.delete(streamId));
    this.pendingSnapshots.set(streamId, written);
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
  async executeBatch(
    commands: readonly Command[],
    options: ExecuteOptions = {},
  ): Promise<ExecuteResult> {
    const first = commands[0];
    if (!first) throw new Error("executeBatch needs at least one command");
    const streamId = commandStreamId(first);
    for (const command of commands) {
      if (commandStreamId(command) !== streamId) {
        throw new Error(`one batch appends to one stream: ${command.type} is not on ${streamId}`);
      }
    }
    const types = commands.map((command) => command.type).join("+");
    // A child of the caller's span (a command's); nothing nests under it, so it is never active.
    const span = tracer.startSpan(`decide+append ${types}`, {
      attributes: { "skein.command": types, "skein.stream": streamId },
    });
    try {
      const result = await this.queue.run(streamId, () =>
        this.decideAndAppend(commands, streamId, options),
      );
      endSpan(span);
      return result;
    } catch (error) {
      endSpan(span, error);
      throw error;
    }
  }

  /** The batch's attempts, on the stream's turn of the queue. */
  private async decideAndAppend(
    commands: readonly Command[],
    streamId: string,
    options: ExecuteOptions,
  ): Promise<ExecuteResult> {
    let full = false;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.attempt(commands, streamId, options, full);
      } catch (error) {
        if (error instanceof HistoryNeeded && !full) {
          // A compact state could not answer: decide again on the full ones (nothing was
          // appended; the compact states evolved in place are dropped).
          this.cache.dropCompact(streamId, commands);
          full = true;
          attempt -= 1;
          continue;
        }
        if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw error;
        // Threads read as context may be just as stale as the stream itself.
        this.cache.dropContext(commands);
      }
    }
  }

  /**
   * One decision: a command id already answered returns its receipt; otherwise the commands are
   * decided on the loaded state, evolved into it and appended with their projection rows.
   */
  private async attempt(
    commands: readonly Command[],
    streamId: string,
    options: ExecuteOptions,
    full: boolean,
  ): Promise<ExecuteResult> {
    if (options.commandId) {
      const stored = await this.store.findReceipt(options.commandId);
      if (stored) {
        // B3: another instance may have answered this id for another procedure meanwhile.
        const conflict = options.binding
          ? receiptConflict(options.commandId, stored, options.binding)
          : null;
        if (conflict) throw new ConflictError(conflict.message);
        return {
          events: [],
          sequence: stored.lastSequence,
          receipt: stored.receipt,
          duplicate: true,
        };
      }
    }
    const entry = await this.cache.load(streamId, full);
    const events: DomainEvent[] = [];
    const projections: ProjectionWrite[] = [];
    const at = this.clock().toISOString();
    for (const [index, command] of commands.entries()) {
      const context = await this.cache.contextOf(command, full);
      const commandId = (
        index === 0 && options.commandId ? options.commandId : this.ids.next("command")
      ) as CommandId;
      const result = decide(command, entry.state, { commandId, at, ids: this.ids }, context);
      if (!result.ok) {
        // Earlier commands of the batch already evolved the cached state in place.
        if (index > 0) this.cache.drop(streamId);
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
      if (appended.duplicate) this.cache.drop(streamId);
      else this.snapshotLater(streamId, entry);
      return {
        events: appended.duplicate ? [] : events,
        sequence: appended.lastSequence,
        receipt: appended.receipt,
        duplicate: appended.duplicate,
      };
    } catch (error) {
      this.cache.drop(streamId);
      throw error;
    }
  }
}
