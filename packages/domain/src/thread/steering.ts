import type { CommandData } from "../commands.ts";
import type { ConversationMessage } from "../entities/conversation-message.ts";
import type { Run } from "../entities/run.ts";
import type { TurnItemOf } from "../entities/turn-item.ts";
import { PreconditionFailedError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { MessageId, NodeId, ProviderTurnId } from "../ids.ts";
import type { CommandMeta } from "../meta.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { assertTransition } from "../transitions.ts";
import { buildNode, itemBase } from "./builders.ts";
import { requireAbsent, requireEntity, requireThread } from "./guards.ts";

/** Native steer (R1): the text joins the running turn as a user message of the same run. */
export function steerRun(
  d: CommandData<"SteerRun">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const run = requireEntity(s.runs, d.runId, "Run");
  if (run.status !== "running" && run.status !== "waiting") {
    throw new PreconditionFailedError(
      `run ${run.id} is ${run.status}; only a running run can be steered`,
    );
  }
  const attempt = run.activeAttemptId ? s.attempts.get(run.activeAttemptId) : undefined;
  const turn = attempt?.providerTurnId ? s.providerTurns.get(attempt.providerTurnId) : undefined;
  if (!attempt || turn?.status !== "running") {
    throw new PreconditionFailedError(`run ${run.id} has no running provider turn to steer`);
  }
  requireAbsent(s.messages, d.messageId, "Message");
  const { message, item } = steeringMessage(
    run,
    d.messageId,
    d.text,
    attempt.rootNodeId,
    turn.id,
    meta,
  );
  return [{ type: "RunSteered", data: { runId: run.id, message, item, at: meta.at } }];
}

/**
 * App-level steering/retry (R1): the active attempt is superseded (its turn is interrupted by
 * the orchestrator and reports on its own) and a new attempt starts under the same RunId.
 */
export function restartAttempt(
  d: CommandData<"RestartAttempt">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  const run = requireEntity(s.runs, d.runId, "Run");
  if (run.status !== "starting" && run.status !== "running" && run.status !== "waiting") {
    throw new PreconditionFailedError(
      `run ${run.id} is ${run.status}; only an active run restarts`,
    );
  }
  if (!run.activeAttemptId) throw new PreconditionFailedError(`run ${run.id} has no attempt yet`);
  const previous = requireEntity(s.attempts, run.activeAttemptId, "RunAttempt");
  assertTransition("RunAttempt", previous.status, "superseded", previous.id);
  requireAbsent(s.attempts, d.attemptId, "RunAttempt");
  requireAbsent(s.nodes, d.rootNodeId, "ExecutionNode");
  const providerThreadId = d.providerThreadId ?? previous.providerThreadId;
  const providerThread = requireEntity(s.providerThreads, providerThreadId, "ProviderThread");
  if (providerThread.provider !== run.provider) {
    throw new PreconditionFailedError(
      `provider thread ${providerThread.id} is not ${run.provider}`,
    );
  }
  if (d.steer) requireAbsent(s.messages, d.steer.messageId, "Message");
  const rootNode = buildNode({
    id: d.rootNodeId,
    threadId: thread.id,
    run,
    kind: "root_turn",
    parent: null,
    status: "pending",
    providerThreadId,
    providerTurnId: null,
    countsForRun: true,
    at: meta.at,
  });
  const steer = d.steer
    ? steeringMessage(run, d.steer.messageId, d.steer.text, rootNode.id, null, meta)
    : null;
  return [
    {
      type: "AttemptRestarted",
      data: {
        runId: run.id,
        previousAttemptId: previous.id,
        attempt: {
          id: d.attemptId,
          runId: run.id,
          attemptOrdinal: previous.attemptOrdinal + 1,
          rootNodeId: rootNode.id,
          provider: run.provider,
          providerThreadId,
          providerTurnId: null,
          reason: d.reason,
          status: "pending",
          startedAt: meta.at,
          completedAt: null,
        },
        rootNode,
        message: steer?.message ?? null,
        item: steer?.item ?? null,
        at: meta.at,
      },
    },
  ];
}

/** R2: the runtime behind an in-flight run is gone; the run ends interrupted, explicitly. */
export function recoverInterruptedRun(
  d: CommandData<"RecoverInterruptedRun">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const run = requireEntity(s.runs, d.runId, "Run");
  assertTransition("Run", run.status, "interrupted", run.id);
  return [{ type: "RunRecovered", data: { runId: run.id, reason: d.reason, at: meta.at } }];
}

function steeringMessage(
  run: Run,
  messageId: MessageId,
  text: string,
  nodeId: NodeId,
  providerTurnId: ProviderTurnId | null,
  meta: CommandMeta,
): { message: ConversationMessage; item: TurnItemOf<"user_message"> } {
  const message: ConversationMessage = {
    id: messageId,
    threadId: run.threadId,
    runId: run.id,
    nodeId,
    role: "user",
    text,
    attachments: [],
    streaming: false,
    createdAt: meta.at,
    updatedAt: meta.at,
  };
  const item: TurnItemOf<"user_message"> = {
    ...itemBase({
      id: meta.ids.next("item"),
      threadId: run.threadId,
      run,
      nodeId,
      providerTurnId,
      status: "completed",
      at: meta.at,
    }),
    type: "user_message",
    messageId,
    text,
    attachments: [],
  };
  return { message, item };
}
