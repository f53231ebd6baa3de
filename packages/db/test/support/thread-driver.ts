import {
  type CommandMeta,
  type ForkSourcePointSpec,
  initialThreadState,
  type NodeId,
  type ProviderKind,
  type ProviderThreadId,
  type RunId,
  type ThreadCommand,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import type { EventStore } from "../../src/index.ts";
import type { AppendResult } from "../../src/event-store.ts";
import { type Aggregate, decideAndProject, idOf } from "./execute-command.ts";

export type RunScript = {
  provider?: ProviderKind;
  /** Items the provider produces in the run (assistant messages and tool calls, alternating). */
  items?: number;
  /** Capture a ready root-run checkpoint afterwards (one more turn item). */
  checkpoint?: boolean;
};

/**
 * Drives one thread through real domain commands, keeping its aggregate in memory the way the
 * orchestrator will. Appends are pipelined: each is issued with the version its command was
 * decided at, without waiting for the previous one, so a burst of commands shares group commits.
 * Any rejection (by `decide` or by the store) fails the caller: scripts are meant to be valid.
 */
export class ThreadDriver {
  readonly threadId: ThreadId;
  private readonly aggregate: Aggregate;
  private readonly inFlight: Promise<AppendResult>[] = [];
  private readonly providerThreads = new Map<ProviderKind, ProviderThreadId>();
  private counter = 0;

  constructor(
    private readonly store: EventStore,
    name: string,
    private readonly meta: () => CommandMeta,
  ) {
    this.threadId = idOf("thread", name);
    this.aggregate = {
      streamId: `thread-${this.threadId}`,
      state: initialThreadState(),
      version: 0,
    };
  }

  get state(): ThreadState {
    return this.aggregate.state as ThreadState;
  }

  send(command: ThreadCommand, readThread?: (id: ThreadId) => ThreadState | undefined): void {
    const meta = this.meta();
    const expected = this.aggregate.version;
    const decided = decideAndProject(command, this.aggregate, meta, { readThread });
    if (!decided.ok) throw new Error(`${command.type} rejected: ${decided.error.message}`);
    if (decided.events.length === 0) return;
    const append = this.store.append(this.aggregate.streamId, expected, decided.events, {
      commandId: meta.commandId,
      projections: decided.projections,
    });
    // Awaited in flush(); the no-op handler only keeps an early failure from being "unhandled".
    append.catch(() => {});
    this.inFlight.push(append);
  }

  /** Waits for every append issued so far. */
  async flush(): Promise<void> {
    await Promise.all(this.inFlight.splice(0));
  }

  create(title = "Thread", defaultProvider: ProviderKind = "codex"): this {
    const projectId = idOf("project", "bench");
    this.send({
      type: "CreateThread",
      data: { threadId: this.threadId, projectId, title, defaultProvider },
    });
    return this;
  }

  fork(source: ThreadDriver, sourcePoint: ForkSourcePointSpec = { type: "latest_stable" }): this {
    const command: ThreadCommand = {
      type: "ForkThread",
      data: {
        threadId: this.threadId,
        sourceThreadId: source.threadId,
        sourcePoint,
        createdBy: "user",
        relationship: "fork",
      },
    };
    this.send(command, (id) => (id === source.threadId ? source.state : undefined));
    return this;
  }

  queue(text: string, provider: ProviderKind = "codex"): RunId {
    const runId = this.next("run");
    const messageId = this.next("message");
    const threadId = this.threadId;
    this.send({ type: "QueueRun", data: { threadId, runId, messageId, text, provider } });
    return runId;
  }

  /** A whole run: queued, started on a provider thread, items streamed, turn completed. */
  completedRun(text: string, script: RunScript = {}): RunId {
    const threadId = this.threadId;
    const provider = script.provider ?? "codex";
    const runId = this.queue(text, provider);
    const providerThreadId = this.providerThread(provider);
    const rootNodeId = this.next("node");
    const attemptId = this.next("attempt");
    this.send({
      type: "StartRun",
      data: { threadId, runId, attemptId, rootNodeId, providerThreadId },
    });
    const providerTurnId = this.next("providerTurn");
    this.send({ type: "StartProviderTurn", data: { threadId, runId, providerTurnId } });
    for (let i = 0; i < (script.items ?? 2); i += 1) {
      const nodeId = this.next("node");
      if (i % 2 === 0) {
        this.send({
          type: "StartItem",
          data: { threadId, providerTurnId, nodeId, kind: "assistant_message" },
        });
        this.send({ type: "AppendItemDelta", data: { threadId, nodeId, delta: `${text}: ${i}` } });
      } else {
        const content = { type: "command_execution" as const, input: `ls ${i}` };
        this.send({
          type: "StartItem",
          data: { threadId, providerTurnId, nodeId, kind: "tool_call", content },
        });
      }
      this.send({ type: "CompleteItem", data: { threadId, nodeId, status: "completed" } });
    }
    this.send({
      type: "CompleteProviderTurn",
      data: { threadId, providerTurnId, status: "completed" },
    });
    if (script.checkpoint) this.checkpoint(rootNodeId);
    return runId;
  }

  private checkpoint(nodeId: NodeId): void {
    const threadId = this.threadId;
    const scopeId = this.next("checkpointScope");
    this.send({
      type: "RecordCheckpointScope",
      data: { threadId, scopeId, kind: "root_run", nodeId, cwd: "/work" },
    });
    const checkpointId = this.next("checkpoint");
    this.send({
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
  }

  private providerThread(provider: ProviderKind): ProviderThreadId {
    const known = this.providerThreads.get(provider);
    if (known) return known;
    const providerThreadId = this.next("providerThread");
    this.send({
      type: "RecordProviderThread",
      data: { threadId: this.threadId, providerThreadId, provider },
    });
    this.providerThreads.set(provider, providerThreadId);
    return providerThreadId;
  }

  private next<K extends Parameters<typeof idOf>[0]>(kind: K) {
    this.counter += 1;
    return idOf(kind, `${this.threadId.slice(4)}_${this.counter}`);
  }
}
