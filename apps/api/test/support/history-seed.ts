import type { EventStore, NewEvent, ProjectionWrite } from "@skein/db";
import {
  type Command,
  type CommandMeta,
  type DomainEvent,
  createSequentialIds,
  decide,
  evolve,
  ID_PREFIXES,
  type IdKind,
  type IdOf,
  initialStateFor,
  type ProjectId,
  type ProviderKind,
  type ProjectState,
  type ProviderTurnId,
  projectStreamId,
  type ProviderThreadId,
  projectEvent,
  type RunId,
  type ThreadId,
  type ThreadState,
  threadStreamId,
} from "@skein/domain";

// No vitest imports: the benches seed through this module too.

/** Events per append: large enough that seeding 10,000 runs takes seconds, not minutes. */
const EVENTS_PER_APPEND = 4_000;

type Pending = { events: NewEvent[]; writes: Map<string, ProjectionWrite> };
type Stream = { state: ThreadState | ProjectState; committed: number };

/** A tool call inside a run: a shell command whose output streams in chunks (E16-like logs). */
export type SeedToolCall = { command: string; output: readonly string[]; exitCode: number };

/** What one run holds besides its user message; the default is a one-delta reply. */
export type SeedRunContent = {
  /** The assistant reply, streamed as these deltas (at least one). */
  reply?: readonly string[];
  /** Tool calls made before the reply, in order. */
  tools?: readonly SeedToolCall[];
  /** File changes the runtime reported, after the tool calls. */
  files?: readonly SeedFileChange[];
  /** A todo list the runtime reported (E17), before the reply. */
  todo?: readonly { text: string; status: "pending" | "running" | "completed" }[];
};

export type SeedFileChange = {
  fileName: string;
  additions: number;
  deletions: number;
  diff: string;
};

/**
 * Builds long histories through the store's public append path, fast: commands are decided,
 * evolved and projected in memory exactly as the orchestrator does, and each thread's events are
 * appended in large batches (one append per few thousand events, with only the last write of
 * each projection row). What lands in the store is what real commands would have written.
 */
export class HistorySeeder {
  private readonly ids = createSequentialIds("seed");
  private readonly streams = new Map<string, Stream>();
  private readonly pending = new Map<string, Pending>();
  private readonly providerThreads = new Map<ThreadId, ProviderThreadId>();
  /** Appends handed to the store and not yet awaited, oldest first (the store commits in order). */
  private readonly inFlight: Promise<unknown>[] = [];
  private failure: unknown = null;
  private tick = 0;
  /** Events decided so far (appended or pending). */
  events = 0;
  /** The provider new runs are recorded on (as if that runtime had run them). */
  provider: ProviderKind = "codex";

  constructor(
    private readonly store: EventStore,
    readonly projectId: ProjectId = `${ID_PREFIXES.project}_seed` as ProjectId,
    private readonly startMs = Date.UTC(2026, 0, 1),
  ) {}

  next<K extends IdKind>(kind: K): IdOf<K> {
    return this.ids.next(kind);
  }

  state(threadId: ThreadId): ThreadState {
    const known = this.streams.get(threadStreamId(threadId));
    if (!known) throw new Error(`unknown thread ${threadId}`);
    return known.state as ThreadState;
  }

  /** A project (its own stream); threads name it with `createThread(title, projectId)`. */
  createProject(title: string, workspaceRoot: string): ProjectId {
    const projectId = this.next("project");
    const streamId = projectStreamId(projectId);
    this.streams.set(streamId, { state: initialStateFor("project") as ProjectState, committed: 0 });
    this.decideOn(streamId, {
      type: "CreateProject",
      data: { projectId, title, workspaceRoot, defaultProvider: "codex" },
    });
    return projectId;
  }

  /**
   * Takes over a thread something else recorded (e.g. the orchestrator, with real runs), so more
   * runs can be seeded onto it or it can be forked here: its state is rebuilt from its stream.
   */
  async attach(threadId: ThreadId): Promise<void> {
    const streamId = threadStreamId(threadId);
    const stored = await this.store.readStream(streamId);
    const state = initialStateFor("thread") as ThreadState;
    for (const event of stored)
      evolve(state, { type: event.type, data: event.data } as DomainEvent);
    this.streams.set(streamId, { state, committed: stored.length });
  }

  /** A new thread (its title searchable by the shells query). */
  createThread(title = "Thread", projectId = this.projectId): ThreadId {
    const threadId = this.next("thread");
    this.streams.set(threadStreamId(threadId), {
      state: initialStateFor("thread") as ThreadState,
      committed: 0,
    });
    this.send(threadId, {
      type: "CreateThread",
      data: { threadId, projectId, title, defaultProvider: "codex" },
    });
    return threadId;
  }

  /**
   * A fork of `sourceId` at its latest stable run. The source's pending events are handed to the
   * store first, so the log holds them before the fork (appends commit in the order they are made).
   */
  async fork(sourceId: ThreadId): Promise<ThreadId> {
    const sourcePending = this.pending.get(threadStreamId(sourceId));
    if (sourcePending) this.appendPending(threadStreamId(sourceId), sourcePending);
    const threadId = this.next("thread");
    this.streams.set(threadStreamId(threadId), {
      state: initialStateFor("thread") as ThreadState,
      committed: 0,
    });
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

  /**
   * One whole run: queued, started, tool calls with their output (if any), an assistant reply
   * streamed, completed, checkpointed.
   */
  run(threadId: ThreadId, text: string, content: SeedRunContent = {}): RunId {
    const runId = this.next("run");
    this.send(threadId, {
      type: "QueueRun",
      data: { threadId, runId, messageId: this.next("message"), text, provider: this.provider },
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
    for (const tool of content.tools ?? []) this.toolCall(threadId, providerTurnId, tool);
    for (const file of content.files ?? []) this.fileChange(threadId, providerTurnId, file);
    if (content.todo) {
      this.send(threadId, {
        type: "UpdatePlan",
        data: {
          threadId,
          providerTurnId,
          planId: this.next("plan"),
          nodeId: this.next("node"),
          kind: "todo_list",
          status: "active",
          steps: content.todo.map((step, i) => ({ id: `step-${i + 1}`, ...step })),
        },
      });
    }
    const nodeId = this.next("node");
    this.send(threadId, {
      type: "StartItem",
      data: { threadId, providerTurnId, nodeId, kind: "assistant_message" },
    });
    for (const delta of content.reply ?? [`re: ${text}`]) {
      this.send(threadId, { type: "AppendItemDelta", data: { threadId, nodeId, delta } });
    }
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

  /** A `command_execution` tool call: started with its command, output streamed, completed. */
  private toolCall(threadId: ThreadId, providerTurnId: ProviderTurnId, tool: SeedToolCall): void {
    const nodeId = this.next("node");
    this.send(threadId, {
      type: "StartItem",
      data: {
        threadId,
        providerTurnId,
        nodeId,
        kind: "tool_call",
        content: { type: "command_execution", input: tool.command },
      },
    });
    for (const delta of tool.output) {
      this.send(threadId, { type: "AppendItemDelta", data: { threadId, nodeId, delta } });
    }
    this.send(threadId, {
      type: "CompleteItem",
      data: {
        threadId,
        nodeId,
        status: tool.exitCode === 0 ? "completed" : "failed",
        // As the adapters report it: the final item carries the whole output.
        content: {
          type: "command_execution",
          input: tool.command,
          output: tool.output.join(""),
          exitCode: tool.exitCode,
        },
      },
    });
  }

  /** A `file_change` item as the runtimes report an edit: started, completed with its diff. */
  private fileChange(threadId: ThreadId, providerTurnId: ProviderTurnId, file: SeedFileChange) {
    const nodeId = this.next("node");
    const content = {
      type: "file_change" as const,
      fileName: file.fileName,
      additions: file.additions,
      deletions: file.deletions,
      diffStr: file.diff,
    };
    this.send(threadId, {
      type: "StartItem",
      data: { threadId, providerTurnId, nodeId, kind: "tool_call", content },
    });
    this.send(threadId, {
      type: "CompleteItem",
      data: { threadId, nodeId, status: "completed", content },
    });
  }

  /** Decides a command on the in-memory state; its events are appended by the next flush. */
  send(
    threadId: ThreadId,
    command: Command,
    readThread?: (id: ThreadId) => ThreadState | undefined,
  ) {
    this.decideOn(threadStreamId(threadId), command, readThread);
  }

  private decideOn(
    streamId: string,
    command: Command,
    readThread?: (id: ThreadId) => ThreadState | undefined,
  ) {
    const stream = this.streams.get(streamId);
    if (!stream) throw new Error(`unknown stream ${streamId}`);
    const decided = decide(command, stream.state, this.meta(), { readThread });
    if (!decided.ok) throw new Error(`${command.type} rejected: ${decided.error.message}`);
    let pending = this.pending.get(streamId);
    if (!pending) {
      pending = { events: [], writes: new Map() };
      this.pending.set(streamId, pending);
    }
    for (const event of decided.events) {
      evolve(stream.state, event);
      for (const write of projectEvent(stream.state, event)) {
        // Only a row's last write matters within one append; the key keeps first-write order.
        const key = `${write.table}\u0000${write.id}`;
        pending.writes.delete(key);
        pending.writes.set(key, write);
      }
      pending.events.push(event);
    }
    this.events += decided.events.length;
    if (pending.events.length >= EVENTS_PER_APPEND) this.appendPending(streamId, pending);
  }

  private appendPending(streamId: string, pending: Pending): void {
    const stream = this.streams.get(streamId);
    if (!stream || pending.events.length === 0) return;
    this.pending.delete(streamId);
    const expected = stream.committed;
    stream.committed += pending.events.length;
    const append = this.store.append(streamId, expected, pending.events, {
      projections: [...pending.writes.values()],
    });
    // Kept as the first failure, thrown by the next settle/flush: no rejection goes unhandled.
    append.catch((error: unknown) => {
      this.failure ??= error;
    });
    this.inFlight.push(append);
  }

  /** Appends a thread's pending events and drops its in-memory state (it can no longer be used). */
  forget(threadId: ThreadId): void {
    const streamId = threadStreamId(threadId);
    const pending = this.pending.get(streamId);
    if (pending) this.appendPending(streamId, pending);
    this.streams.delete(streamId);
    this.providerThreads.delete(threadId);
  }

  /** Appends handed to the store and not yet awaited. */
  get appendsInFlight(): number {
    return this.inFlight.length;
  }

  /**
   * Waits until at most `maxInFlight` appends are outstanding, so a long generation keeps a
   * bounded number of appends (and their serialized events) queued in the store.
   */
  async settle(maxInFlight: number): Promise<void> {
    while (this.inFlight.length > maxInFlight) {
      await this.inFlight.shift()?.catch(() => undefined);
    }
    if (this.failure !== null) throw this.failure;
  }

  /** Appends everything decided so far. */
  async flush(): Promise<void> {
    for (const [streamId, pending] of [...this.pending]) this.appendPending(streamId, pending);
    await this.settle(0);
  }

  private providerThread(threadId: ThreadId): ProviderThreadId {
    const known = this.providerThreads.get(threadId);
    if (known) return known;
    const providerThreadId = this.next("providerThread");
    this.send(threadId, {
      type: "RecordProviderThread",
      data: { threadId, providerThreadId, provider: this.provider },
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
