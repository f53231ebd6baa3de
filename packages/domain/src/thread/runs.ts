import type { CommandData } from "../commands.ts";
import type { ContextTransfer } from "../entities/context-transfer.ts";
import type { ConversationMessage } from "../entities/conversation-message.ts";
import type { Run } from "../entities/run.ts";
import type { TurnItemOf } from "../entities/turn-item.ts";
import { usageLimitStands } from "../entities/usage-limit.ts";
import { ConflictError, PreconditionFailedError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { RunAttemptId, RunId } from "../ids.ts";
import type { CommandMeta, DecideContext } from "../meta.ts";
import { nextQueuedRun, type ThreadState } from "../state/thread-state.ts";
import { assertTransition, canTransition } from "../transitions.ts";
import { autoTitle, DEFAULT_THREAD_TITLE } from "./auto-title.ts";
import { buildNode, itemBase } from "./builders.ts";
import { latestStablePoint } from "./fork-point.ts";
import { acceptPlan } from "./plan-status.ts";
import {
  requireAbsent,
  requireEntity,
  requireOpenThread,
  requireOtherThread,
  requireThread,
} from "./guards.ts";
import { usageLimitReached } from "./usage-limit.ts";

/**
 * Send a message: the run is queued with its user message. A run queued while another is active
 * stays queued until dispatched. `bringBackFrom` adds a merge-back transfer bound to this run (T8).
 */
export function queueRun(
  d: CommandData<"QueueRun">,
  s: ThreadState,
  meta: CommandMeta,
  ctx: DecideContext,
): ThreadEvent[] {
  const thread = requireOpenThread(s, d.threadId);
  requireAbsent(s.runs, d.runId, "Run");
  requireAbsent(s.messages, d.messageId, "Message");
  if (d.compact && s.runOrder.length === 0) {
    throw new PreconditionFailedError("nothing to compact: the thread has no runs yet");
  }
  const onDefaultProvider = d.provider === thread.defaultProvider;
  const run: Run = {
    id: d.runId,
    threadId: thread.id,
    ordinal: s.runOrder.length + 1,
    provider: d.provider,
    model: d.model !== undefined ? d.model : onDefaultProvider ? thread.modelSelection.model : null,
    // Implementing a plan is doing the work, so it never runs in plan mode unless asked to.
    interactionMode: d.interactionMode ?? (d.sourcePlanRef ? "default" : thread.interactionMode),
    effort:
      d.effort !== undefined
        ? d.effort
        : onDefaultProvider
          ? (thread.modelSelection.effort ?? null)
          : null,
    providerThreadId: null,
    userMessageId: d.messageId,
    rootNodeId: null,
    activeAttemptId: null,
    status: "queued",
    requestedAt: meta.at,
    startedAt: null,
    completedAt: null,
    checkpointId: null,
    contextHandoffId: null,
    ...(d.sourcePlanRef ? { sourcePlanRef: d.sourcePlanRef } : {}),
    ...(d.compact ? { compact: true as const } : {}),
    interruptRequestedAt: null,
    error: null,
  };
  const message: ConversationMessage = {
    id: d.messageId,
    threadId: thread.id,
    runId: run.id,
    nodeId: null,
    role: "user",
    text: d.text,
    attachments: d.attachments ?? [],
    streaming: false,
    createdAt: meta.at,
    updatedAt: meta.at,
  };
  const item: TurnItemOf<"user_message"> = {
    ...itemBase({
      id: meta.ids.next("item"),
      threadId: thread.id,
      run,
      status: "completed",
      at: meta.at,
    }),
    type: "user_message",
    messageId: message.id,
    text: message.text,
    attachments: message.attachments,
  };
  const events: ThreadEvent[] = [{ type: "RunQueued", data: { run, message, item, at: meta.at } }];
  // A thread nobody named is named by what it was first asked (T11: threads you can tell apart).
  const title =
    run.ordinal === 1 && thread.title === DEFAULT_THREAD_TITLE ? autoTitle(d.text) : null;
  if (title) {
    events.push({
      type: "ThreadSettingsUpdated",
      data: { threadId: thread.id, changes: { title }, at: meta.at },
    });
  }
  if (d.sourcePlanRef) events.push(acceptPlan(s, d.sourcePlanRef, run.id, meta));
  if (d.bringBackFrom) events.push(mergeBack(d.bringBackFrom, run, meta, ctx));
  return events;
}

function mergeBack(
  forkId: NonNullable<CommandData<"QueueRun">["bringBackFrom"]>,
  run: Run,
  meta: CommandMeta,
  ctx: DecideContext,
): ThreadEvent {
  const fork = requireOtherThread(ctx.readThread, forkId);
  if (fork.thread.lineage?.parentThreadId !== run.threadId || !fork.inheritance) {
    throw new PreconditionFailedError(`thread ${forkId} is not a fork of ${run.threadId}`);
  }
  const latest = latestStablePoint(fork);
  if (!latest.run) {
    throw new PreconditionFailedError(`fork ${forkId} has no completed run to bring back`);
  }
  const transfer: ContextTransfer = {
    id: meta.ids.next("transfer"),
    type: "merge_back",
    sourceThreadId: fork.thread.id,
    targetThreadId: run.threadId,
    sourcePoint: latest.point,
    basePoint: fork.inheritance.sourcePoint,
    sourceProvider: latest.run.provider,
    targetProvider: run.provider,
    status: "pending",
    resolution: null,
    createdBy: "user",
    createdAt: meta.at,
    consumedAt: null,
    targetRunId: run.id,
    consumedByRunId: null,
    fallback: null,
    error: null,
  };
  return { type: "ContextTransferCreated", data: { transfer, at: meta.at } };
}

/** Dispatch: FIFO, one active run at a time, on a provider thread of the run's provider. */
export function startRun(
  d: CommandData<"StartRun">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  const run = requireEntity(s.runs, d.runId, "Run");
  assertTransition("Run", run.status, "starting", run.id);
  if (s.activeRunId) throw new PreconditionFailedError(`run ${s.activeRunId} is still active`);
  const next = nextQueuedRun(s);
  if (next && next.id !== run.id) {
    throw new PreconditionFailedError(`run ${run.id} is queued behind run ${next.id}`);
  }
  requireAbsent(s.attempts, d.attemptId, "RunAttempt");
  requireAbsent(s.nodes, d.rootNodeId, "ExecutionNode");
  const providerThread = requireEntity(s.providerThreads, d.providerThreadId, "ProviderThread");
  if (providerThread.provider !== run.provider) {
    throw new PreconditionFailedError(
      `provider thread ${providerThread.id} is ${providerThread.provider}, run ${run.id} is ${run.provider}`,
    );
  }
  if (
    providerThread.status !== "active" &&
    !canTransition("ProviderThread", providerThread.status, "active")
  ) {
    throw new PreconditionFailedError(
      `provider thread ${providerThread.id} is ${providerThread.status}`,
    );
  }
  if (d.contextHandoffId) {
    const handoff = requireEntity(s.handoffs, d.contextHandoffId, "ContextHandoff");
    if (handoff.status !== "ready") {
      throw new PreconditionFailedError(`handoff ${handoff.id} is ${handoff.status}`);
    }
  }
  // A run queued again by RetryRun keeps its earlier attempts; the new one follows them (E4).
  const earlier = s.attemptIdsByRun.get(run.id) ?? [];
  const rootNode = buildNode({
    id: d.rootNodeId,
    threadId: thread.id,
    run,
    kind: "root_turn",
    parent: null,
    status: "pending",
    providerThreadId: providerThread.id,
    providerTurnId: null,
    countsForRun: true,
    at: meta.at,
  });
  return [
    {
      type: "RunStarted",
      data: {
        runId: run.id,
        attempt: {
          id: d.attemptId,
          runId: run.id,
          attemptOrdinal: lastAttemptOrdinal(s, earlier) + 1,
          rootNodeId: rootNode.id,
          provider: run.provider,
          providerThreadId: providerThread.id,
          providerTurnId: null,
          reason: earlier.length > 0 ? "retry" : "initial",
          status: "pending",
          startedAt: meta.at,
          completedAt: null,
        },
        rootNode,
        contextHandoffId: d.contextHandoffId ?? null,
        at: meta.at,
      },
    },
  ];
}

function lastAttemptOrdinal(s: ThreadState, attemptIds: readonly RunAttemptId[]): number {
  let last = 0;
  for (const attemptId of attemptIds) {
    last = Math.max(last, s.attempts.get(attemptId)?.attemptOrdinal ?? 0);
  }
  return last;
}

/**
 * E4/B2: the thread's latest counted run ended interrupted or failed; it is queued again and its
 * next start is a `retry` attempt on the provider thread as persisted (the last stable point).
 * Only the latest run: retrying an earlier one would rewrite history later runs built on.
 */
export function retryRun(
  d: CommandData<"RetryRun">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireOpenThread(s, d.threadId);
  const run = requireEntity(s.runs, d.runId, "Run");
  assertTransition("Run", run.status, "queued", run.id);
  if (s.activeRunId) throw new ConflictError(`run ${s.activeRunId} is still active; wait for it`);
  const queued = nextQueuedRun(s);
  // Issue 32: the run a usage limit failed may go again ahead of the messages the limit held.
  const limit = s.thread?.usageLimit;
  const heldByLimit = limit?.runId === run.id && usageLimitStands(limit);
  if (queued && !heldByLimit) {
    throw new ConflictError(`run ${queued.id} is queued; cancel it to retry ${run.id}`);
  }
  // The messages a limit held have not run: nothing built on them yet.
  const latest = latestCountedRun(s, heldByLimit);
  if (latest && latest.id !== run.id) {
    throw new ConflictError(
      `only the latest run can be retried; run ${latest.id} came after ${run.id}`,
    );
  }
  return [{ type: "RunRetryQueued", data: { runId: run.id, at: meta.at } }];
}

/** The thread's latest run that counts (not cancelled or rolled back); `startedOnly`: not queued. */
export function latestCountedRun(s: ThreadState, startedOnly = false): Run | undefined {
  for (let i = s.runOrder.length - 1; i >= 0; i -= 1) {
    const run = s.runs.get(s.runOrder[i] as RunId);
    if (!run || run.status === "cancelled" || run.status === "rolled_back") continue;
    if (startedOnly && run.status === "queued") continue;
    return run;
  }
  return undefined;
}

/**
 * Asks the provider to stop; the run ends `interrupted` when its turn reports so. A run whose
 * turn has not started yet has nothing to ask, so it ends right away.
 */
export function interruptRun(
  d: CommandData<"InterruptRun">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const run = requireEntity(s.runs, d.runId, "Run");
  assertTransition("Run", run.status, "interrupted", run.id);
  if (run.interruptRequestedAt) {
    throw new PreconditionFailedError(`an interrupt of run ${run.id} is already requested`);
  }
  const attempt = run.activeAttemptId ? s.attempts.get(run.activeAttemptId) : undefined;
  if (attempt?.providerTurnId) {
    return [{ type: "RunInterruptRequested", data: { runId: run.id, at: meta.at } }];
  }
  return [
    {
      type: "RunFinished",
      data: { runId: run.id, status: "interrupted", error: null, at: meta.at },
    },
  ];
}

/** Fails a run that has no running provider turn to report its end (e.g. T5 `unsupported`). */
export function failRun(
  d: CommandData<"FailRun">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const run = requireEntity(s.runs, d.runId, "Run");
  assertTransition("Run", run.status, "failed", run.id);
  const attempt = run.activeAttemptId ? s.attempts.get(run.activeAttemptId) : undefined;
  const turn = attempt?.providerTurnId ? s.providerTurns.get(attempt.providerTurnId) : undefined;
  if (turn?.status === "running") {
    throw new PreconditionFailedError(
      `provider turn ${turn.id} is running; complete it (or recover the run) instead`,
    );
  }
  return [
    { type: "RunFinished", data: { runId: run.id, status: "failed", error: d.error, at: meta.at } },
    ...(d.usageLimit ? [usageLimitReached(run, d.usageLimit, meta)] : []),
  ];
}
