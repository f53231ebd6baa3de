import type { ContextSourcePoint } from "../entities/context-source-point.ts";
import type { ExecutionNode, ExecutionNodeKind } from "../entities/execution-node.ts";
import type { Run } from "../entities/run.ts";
import type { TurnItemStatus } from "../entities/turn-item.ts";
import type { NodeId, ProviderThreadId, ProviderTurnId, ThreadId, TurnItemId } from "../ids.ts";
import type { ThreadState } from "../state/thread-state.ts";

type ItemBaseInput = {
  id: TurnItemId;
  threadId: ThreadId;
  run: Run | null;
  nodeId?: NodeId | null;
  providerTurnId?: ProviderTurnId | null;
  nativeItemRef?: string | null;
  status: TurnItemStatus;
  at: string;
};

/** The correlation fields every turn item carries (P6). */
export function itemBase(input: ItemBaseInput) {
  return {
    id: input.id,
    threadId: input.threadId,
    runId: input.run?.id ?? null,
    runOrdinal: input.run?.ordinal ?? null,
    nodeId: input.nodeId ?? null,
    providerTurnId: input.providerTurnId ?? null,
    nativeItemRef: input.nativeItemRef ?? null,
    provider: input.run?.provider ?? null,
    status: input.status,
    createdAt: input.at,
    updatedAt: input.at,
  };
}

type NodeInput = {
  id: NodeId;
  threadId: ThreadId;
  run: Run;
  kind: ExecutionNodeKind;
  parent: ExecutionNode | null;
  status: ExecutionNode["status"];
  providerThreadId: ProviderThreadId | null;
  providerTurnId: ProviderTurnId | null;
  nativeItemRef?: string | null;
  countsForRun: boolean;
  at: string;
};

export function buildNode(input: NodeInput): ExecutionNode {
  return {
    id: input.id,
    threadId: input.threadId,
    runId: input.run.id,
    parentNodeId: input.parent?.id ?? null,
    rootNodeId: input.parent?.rootNodeId ?? input.id,
    kind: input.kind,
    status: input.status,
    countsForRun: input.countsForRun,
    providerThreadId: input.providerThreadId,
    providerTurnId: input.providerTurnId,
    nativeItemRef: input.nativeItemRef ?? null,
    runtimeRequestId: null,
    checkpointScopeId: null,
    startedAt: input.at,
    completedAt: null,
  };
}

/** A source point at a settled run, with the native refs an adapter needs for C1/C2. */
export function pointAtRun(
  s: ThreadState,
  threadId: ThreadId,
  run: Run | null,
): ContextSourcePoint {
  if (!run) {
    return {
      threadId,
      runId: null,
      checkpointId: null,
      turnItemId: null,
      providerThreadRef: null,
      providerTurnRef: null,
    };
  }
  const providerThread = run.providerThreadId
    ? s.providerThreads.get(run.providerThreadId)
    : undefined;
  const attempt = run.activeAttemptId ? s.attempts.get(run.activeAttemptId) : undefined;
  const turn = attempt?.providerTurnId ? s.providerTurns.get(attempt.providerTurnId) : undefined;
  return {
    threadId,
    runId: run.id,
    checkpointId:
      run.checkpointId && s.checkpoints.get(run.checkpointId)?.status === "ready"
        ? run.checkpointId
        : null,
    turnItemId: null,
    providerThreadRef: providerThread?.nativeThreadRef ?? null,
    providerTurnRef: turn?.nativeTurnRef ?? null,
  };
}
