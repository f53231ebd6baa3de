import type { EventStore, NewEvent, ProjectionWrite } from "@skein/db";
import {
  type Command,
  type CommandMeta,
  createSequentialIds,
  decide,
  evolve,
  ID_PREFIXES,
  type IdKind,
  type IdOf,
  initialStateFor,
  type ProjectId,
  type ProviderThreadId,
  projectEvent,
  type RunId,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";

// No vitest imports: the benches seed through this module too.

/** Events per append: large enough that seeding 10,000 runs takes seconds, not minutes. */
const EVENTS_PER_APPEND = 4_000;

type Pending = { events: NewEvent[]; writes: Map<string, ProjectionWrite> };

/**
 * Builds long histories through the store's public append path, fast: commands are decided,
 * evolved and projected in memory exactly as the orchestrator does, and each thread's events are
 * appended in large batches (one append per few thousand events, with only the last write of
 * each projection row). What lands in the store is what real commands would have written.
 */
export class HistorySeeder {
  private readonly ids = createSequentialIds("seed");
  private readonly threads = new Map<ThreadId, { state: ThreadState; committed: number }>();
  private readonly pending = new Map<ThreadId, Pending>();
  private readonly providerThreads = new Map<ThreadId, ProviderThreadId>();
  private tick = 0;

  constructor(
    private readonly store: EventStore,
    readonly projectId: ProjectId = `${ID_PREFIXES.project}_seed` as ProjectId,
    private readonly startMs = Date.UTC(2026, 0, 1),
  ) {}

  next<K extends IdKind>(kind: K): IdOf<K> {
    return this.ids.next(kind);
  }

  state(threadId: ThreadId): ThreadState {
    const known = this.threads.get(threadId);
    if (!known) throw new Error(`unknown thread ${threadId}`);
    return known.state;
  }

  /** A new thread (its title searchable by the shells query). */
  createThread(title = "Thread"): ThreadId {
    const threadId = this.next("thread");
    this.threads.set(threadId, { state: initialStateFor("thread") as ThreadState, committed: 0 });
    this.send(threadId, {
      type: "CreateThread",
      data: { threadId, projectId: this.projectId, title, defaultProvider: "codex" },
    });
    return threadId;
  }

  /** A fork of `sourceId` at its latest stable run (the source's appends are flushed first). */
  async fork(sourceId: ThreadId): Promise<ThreadId> {
    await this.flush();
    const threadId = this.next("thread");
    this.threads.set(threadId, { state: initialStateFor("thread") as ThreadState, committed: 0 });
    const source = this.state(sourceId);
    this.send(
      threadId,
      {
        type: "ForkThread",
        data: {
          threadId,
          sourceThreadId: sourceId,
          sourcePoint: { type: "latest_stable" },
          createdBy: "user",
          relationship: "fork",
        },
      },
      (id) => (id === sourceId ? source : undefined),
    );
    return threadId;
  }

  /** One whole run: queued, started, an assistant reply streamed, completed, checkpointed. */
  run(threadId: ThreadId, text: string): RunId {
    const runId = this.next("run");
    this.send(threadId, {
      type: "QueueRun",
      data: { threadId, runId, messageId: this.next("message"), text, provider: "codex" },
    });
    const rootNodeId = this.next("node");
    this.send(threadId, {
      type: "StartRun",
      data: {
        threadId,
        runId,
        attemptId: this.next("attempt"),
        rootNodeId,
        providerThreadId: this.providerThread(threadId),
      },
    });
    const providerTurnId = this.next("providerTurn");
    this.send(threadId, { type: "StartProviderTurn", data: { threadId, runId, providerTurnId } });
    const nodeId = this.next("node");
    this.send(threadId, {
      type: "StartItem",
      data: { threadId, providerTurnId, nodeId, kind: "assistant_message" },
    });
    this.send(threadId, {
      type: "AppendItemDelta",
      data: { threadId, nodeId, delta: `re: ${text}` },
    });
    this.send(threadId, { type: "CompleteItem", data: { threadId, nodeId, status: "completed" } });
    this.send(threadId, {
      type: "CompleteProviderTurn",
      data: { threadId, providerTurnId, status: "completed" },
    });
    const scopeId = this.next("checkpointScope");
    this.send(threadId, {
      type: "RecordCheckpointScope",
      data: { threadId, scopeId, kind: "root_run", nodeId: rootNodeId, cwd: "/work" },
    });
    const checkpointId = this.next("checkpoint");
    this.send(threadId, {
      type: "RecordCheckpoint",
      data: {
        threadId,
        scopeId,
        checkpointId,
        ref: `refs/skein/${checkpointId}`,
        status: "ready",
        files: [],
      },
    });
    return runId;
  }

  /** Decides a command on the in-memory state; its events are appended by the next flush. */
  send(
    threadId: ThreadId,
    command: Command,
    readThread?: (id: ThreadId) => ThreadState | undefined,
  ) {
    const thread = this.threads.get(threadId);
    if (!thread) throw new Error(`unknown thread ${threadId}`);
    const decided = decide(command, thread.state, this.meta(), { readThread });
    if (!decided.ok) throw new Error(`${command.type} rejected: ${decided.error.message}`);
    let pending = this.pending.get(threadId);
    if (!pending) {
      pending = { events: [], writes: new Map() };
      this.pending.set(threadId, pending);
    }
    for (const event of decided.events) {
      evolve(thread.state, event);
      for (const write of projectEvent(thread.state, event)) {
        // Only a row's last write matters within one append; the key keeps first-write order.
        const key = `${write.table}\u0000${write.id}`;
        pending.writes.delete(key);
        pending.writes.set(key, write);
      }
      pending.events.push(event);
    }
    if (pending.events.length >= EVENTS_PER_APPEND) this.appendPending(threadId, pending);
  }

  private readonly inFlight: Promise<unknown>[] = [];

  private appendPending(threadId: ThreadId, pending: Pending): void {
    const thread = this.threads.get(threadId);
    if (!thread || pending.events.length === 0) return;
    this.pending.delete(threadId);
    const expected = thread.committed;
    thread.committed += pending.events.length;
    this.inFlight.push(
      this.store.append(`thread-${threadId}`, expected, pending.events, {
        projections: [...pending.writes.values()],
      }),
    );
  }

  /** Appends everything decided so far. */
  async flush(): Promise<void> {
    for (const [threadId, pending] of [...this.pending]) this.appendPending(threadId, pending);
    await Promise.all(this.inFlight.splice(0));
  }

  private providerThread(threadId: ThreadId): ProviderThreadId {
    const known = this.providerThreads.get(threadId);
    if (known) return known;
    const providerThreadId = this.next("providerThread");
    this.send(threadId, {
      type: "RecordProviderThread",
      data: { threadId, providerThreadId, provider: "codex" },
    });
    this.providerThreads.set(threadId, providerThreadId);
    return providerThreadId;
  }

  private meta(): CommandMeta {
    this.tick += 1;
    return {
      commandId: this.ids.next("command"),
      at: new Date(this.startMs + this.tick * 1000).toISOString(),
      ids: this.ids,
    };
  }
}
