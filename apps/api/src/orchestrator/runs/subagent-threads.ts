import type {
  Command,
  IdSource,
  NodeId,
  ProviderKind,
  ProviderSessionId,
  ProviderThread,
  ProviderThreadId,
  ProviderTurnId,
  RuntimeRequestId,
  ThreadId,
  ThreadState,
} from "@skein/domain";
import { subagentTitle } from "@skein/domain";
import { type RuntimeEvent, unexplainedFailure } from "@skein/domain/provider";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { RunAppender } from "../recovery/lease-fence.ts";
import type { Logger } from "../logger.ts";
import type { LiveRequest } from "../runtime/live-requests.ts";
import type { SubagentRegistry } from "../runtime/subagent-registry.ts";
import { type ChildEvents, TurnConsumer, type TurnOutcome } from "./turn-consumer.ts";

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The parent's record of a sub-agent's native thread, nested under its subagent node (E9). */
function nestedThreadOf(
  parent: ThreadState,
  provider: ProviderKind,
  childRef: string,
): ProviderThread | undefined {
  return [...parent.providerThreads.values()].findLast(
    (p) => p.ownerNodeId !== null && p.provider === provider && p.nativeThreadRef === childRef,
  );
}

/** The parent turn's node of a native item, if it was recorded. */
type NodeOf = (itemRef: string) => NodeId | undefined;

/** A sub-agent turn being recorded as a run of its child thread. */
type ChildTurn = {
  threadId: ThreadId;
  providerThreadId: ProviderThreadId;
  /** False: the provider thread cannot be resumed on its own, so it closes with the turn. */
  resumable: boolean;
  consumer: TurnConsumer;
  /** The parent's node that spawned the sub-agent: where its child checkpoint is taken (E6). */
  spawnedBy?: NodeId;
};

export type SubagentThreadDeps = {
  repo: AggregateRepository;
  /** The parent's fenced appender: a child is recorded only while the parent's lease holds. */
  appends: RunAppender;
  ids: IdSource;
  log: Logger;
  registry: SubagentRegistry;
  parentThreadId: ThreadId;
  provider: ProviderKind;
  providerSessionId: ProviderSessionId;
  onRequest: (requestId: RuntimeRequestId, live: LiveRequest | null) => void;
  stopReason: () => string | null;
  /** Asks the provider to stop a native turn of the runtime the parent runs on. */
  interruptNative: (nativeThreadRef: string, nativeTurnRef: string | null) => Promise<void>;
  /** E6: a child checkpoint of the parent's run at the node that spawned a sub-agent. */
  captureChild?: (spawnedBy: NodeId) => Promise<void>;
};

/**
 * T9 native sub-agents of one parent turn: each sub-agent becomes a child app thread (lineage
 * `subagent`) bound to the sub-agent's own provider thread, and each of its native turns a run
 * of that thread whose items, plans, usage and requests are recorded there as they stream. The
 * child's requests are asked and answered in the child thread. Recording a child never fails the
 * parent's turn: a child that cannot be recorded is logged and left out.
 */
export class SubagentThreads implements ChildEvents {
  private readonly turns = new Map<string, ChildTurn>();
  private readonly broken = new Set<string>();

  constructor(private readonly deps: SubagentThreadDeps) {}

  async apply(event: RuntimeEvent, parentNodeOf: NodeOf = () => undefined): Promise<void> {
    const childRef = event.childThreadRef;
    if (childRef === undefined || this.broken.has(childRef)) return;
    try {
      if (event.type === "subagent.started") {
        const threadId = await this.start(childRef, event);
        await this.link(childRef, threadId, event.parentItemRef, parentNodeOf);
        const started = this.turns.get(childRef);
        const spawnedBy = event.parentItemRef ? parentNodeOf(event.parentItemRef) : undefined;
        if (started && spawnedBy) started.spawnedBy = spawnedBy;
        return;
      }
      const turn = this.turns.get(childRef);
      if (!turn) return;
      if (event.type === "subagent.completed") {
        this.turns.delete(childRef);
        this.deps.registry.ended(turn.threadId);
        await this.end(turn, await this.outcomeOf(turn, event));
        if (turn.spawnedBy) await this.deps.captureChild?.(turn.spawnedBy);
        return;
      }
      const { childThreadRef: _own, ...own } = event;
      await turn.consumer.apply(own as RuntimeEvent);
    } catch (error) {
      this.broken.add(childRef);
      this.deps.log.warn(
        { threadId: this.deps.parentThreadId, childThreadRef: childRef, error: message(error) },
        "a sub-agent's work could not be recorded in its child thread",
      );
    }
  }

  /** Whether a child turn is still open. */
  hasOpen(): boolean {
    return this.turns.size > 0;
  }

  /** The parent turn ended: a child turn the provider left open ends `interrupted` (R2). */
  async closeAll(): Promise<void> {
    for (const [childRef, turn] of [...this.turns]) {
      this.turns.delete(childRef);
      this.deps.registry.ended(turn.threadId);
      await this.end(turn, { status: "interrupted" }).catch((error: unknown) =>
        this.deps.log.warn(
          { threadId: turn.threadId, error: message(error) },
          "sub-agent run not closed",
        ),
      );
    }
  }

  /**
   * A sub-agent stopped on request (its parent's or its own interrupt) ends `interrupted`, even
   * where the provider reports the cut-off call as failed (Claude's Agent tool result is an error).
   */
  private async outcomeOf(
    turn: ChildTurn,
    event: Extract<RuntimeEvent, { type: "subagent.completed" }>,
  ): Promise<TurnOutcome> {
    const state = await this.deps.repo.thread(turn.threadId);
    const run = state.activeRunId ? state.runs.get(state.activeRunId) : undefined;
    if (event.status === "failed" && run?.interruptRequestedAt) {
      return { status: "interrupted" };
    }
    return event.status === "failed"
      ? {
          status: "failed",
          failure: unexplainedFailure(event.error || "the sub-agent's turn failed"),
        }
      : { status: event.status };
  }

  private async end(turn: ChildTurn, outcome: TurnOutcome): Promise<void> {
    await turn.consumer.complete(outcome);
    if (turn.resumable) return;
    // The child thread stays readable and can be continued; its next run starts afresh.
    await this.deps.appends.execute({
      type: "UpdateProviderThread",
      data: { threadId: turn.threadId, providerThreadId: turn.providerThreadId, status: "closed" },
    });
  }

  /**
   * E9: the sub-agent's native thread is also recorded in the parent, nested under the subagent
   * node that spawned it, so the parent's graph leads from that node to the child's provider
   * thread and to the child thread that follows it. That link is what finds the child thread
   * again for the sub-agent's later turns, also after a restart (E8: not from memory).
   */
  private async link(
    childRef: string,
    childThreadId: ThreadId,
    parentItemRef: string | null | undefined,
    parentNodeOf: NodeOf,
  ): Promise<void> {
    const d = this.deps;
    const nested = nestedThreadOf(await d.repo.thread(d.parentThreadId), d.provider, childRef);
    if (nested) {
      if (nested.childThreadId === childThreadId) return;
      await d.appends.execute({
        type: "UpdateProviderThread",
        data: { threadId: d.parentThreadId, providerThreadId: nested.id, childThreadId },
      });
      return;
    }
    const ownerNodeId = parentItemRef ? parentNodeOf(parentItemRef) : undefined;
    if (!ownerNodeId) {
      d.log.warn(
        { threadId: d.parentThreadId, childThreadRef: childRef },
        "a sub-agent's spawning item is unknown: its later turns may get a new child thread",
      );
      return;
    }
    await d.appends.execute({
      type: "RecordProviderThread",
      data: {
        threadId: d.parentThreadId,
        providerThreadId: d.ids.next("providerThread"),
        provider: d.provider,
        providerSessionId: d.providerSessionId,
        ownerNodeId,
        childThreadId,
        nativeThreadRef: childRef,
      },
    });
  }

  /**
   * The child thread following this sub-agent, from the parent's event log. A child thread that
   * was promoted (or deleted) follows it no more: the sub-agent's later work gets a new one.
   */
  private async followingThread(childRef: string): Promise<ThreadId | undefined> {
    const d = this.deps;
    const parent = await d.repo.thread(d.parentThreadId);
    const childId = nestedThreadOf(parent, d.provider, childRef)?.childThreadId;
    if (!childId) return undefined;
    const child = (await d.repo.thread(childId)).thread;
    if (!child || child.deletedAt || child.lineage?.parentThreadId !== d.parentThreadId) {
      return undefined;
    }
    return childId;
  }

  private async start(
    childRef: string,
    event: Extract<RuntimeEvent, { type: "subagent.started" }>,
  ): Promise<ThreadId> {
    const d = this.deps;
    const known = await this.followingThread(childRef);
    const threadId = known ?? d.ids.next("thread");
    const parent = (await d.repo.thread(d.parentThreadId)).thread;
    if (!parent) throw new Error(`parent thread ${d.parentThreadId} not found`);
    const task = event.description?.trim() || "a task from its parent agent";
    const title = subagentTitle(event.description);
    const runId = d.ids.next("run");
    const providerTurnId = d.ids.next("providerTurn");
    let providerThreadId = known
      ? [...(await d.repo.thread(threadId)).providerThreads.values()].find(
          (p) => p.nativeThreadRef === childRef && p.status !== "closed",
        )?.id
      : undefined;
    const head: Command[] = [];
    if (!known) {
      head.push({
        type: "CreateThread",
        data: {
          threadId,
          projectId: parent.projectId,
          title,
          defaultProvider: d.provider,
          modelSelection: parent.modelSelection,
          runtimeMode: parent.runtimeMode,
          parentThreadId: parent.id,
          ...(parent.worktreePath ? { worktreePath: parent.worktreePath } : {}),
        },
      });
    }
    if (!providerThreadId) {
      providerThreadId = d.ids.next("providerThread");
      head.push({
        type: "RecordProviderThread",
        data: {
          threadId,
          providerThreadId,
          provider: d.provider,
          providerSessionId: d.providerSessionId,
          nativeThreadRef: childRef,
          status: "idle",
        },
      });
    }
    await d.appends.executeBatch([
      ...head,
      {
        type: "QueueRun",
        data: {
          threadId,
          runId,
          messageId: d.ids.next("message"),
          // The person reads what the sub-agent was asked; the provider already has it.
          text: `Sub-agent task from ${parent.title}: ${task.slice(0, 4000)}`,
          provider: d.provider,
        },
      },
      {
        type: "StartRun",
        data: {
          threadId,
          runId,
          attemptId: d.ids.next("attempt"),
          rootNodeId: d.ids.next("node"),
          providerThreadId,
        },
      },
      {
        type: "StartProviderTurn",
        data: { threadId, runId, providerTurnId, nativeTurnRef: event.nativeTurnRef },
      },
    ]);
    d.registry.started(threadId, {
      parentThreadId: d.parentThreadId,
      interrupt: () => d.interruptNative(childRef, event.nativeTurnRef),
    });
    this.turns.set(childRef, {
      threadId,
      providerThreadId,
      resumable: event.resumable,
      consumer: this.consumerFor(threadId, providerTurnId),
    });
    return threadId;
  }

  private consumerFor(threadId: ThreadId, providerTurnId: ProviderTurnId): TurnConsumer {
    const d = this.deps;
    return new TurnConsumer(
      d.appends,
      d.ids,
      threadId,
      providerTurnId,
      d.providerSessionId,
      d.onRequest,
      d.stopReason,
    );
  }
}
