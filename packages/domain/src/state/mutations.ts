import type { Checkpoint } from "../entities/checkpoint.ts";
import type { CheckpointScope } from "../entities/checkpoint-scope.ts";
import type { ContextHandoff } from "../entities/context-handoff.ts";
import type { ContextTransfer } from "../entities/context-transfer.ts";
import type { ConversationMessage } from "../entities/conversation-message.ts";
import type { ExecutionNode, ExecutionNodeStatus } from "../entities/execution-node.ts";
import type { PlanArtifact } from "../entities/plan-artifact.ts";
import type { ProviderThread } from "../entities/provider-thread.ts";
import type { ProviderTurn } from "../entities/provider-turn.ts";
import type { Run } from "../entities/run.ts";
import type { RunAttempt } from "../entities/run-attempt.ts";
import type { RuntimeRequest } from "../entities/runtime-request.ts";
import {
  COMPACTION_COMPLETED_TITLE,
  type TurnItem,
  type TurnItemStatus,
} from "../entities/turn-item.ts";
import type { NodeId, RunId } from "../ids.ts";
import { nativeRefKey, type ThreadState } from "./thread-state.ts";

// Every write goes through these helpers so `state.changed` always names the touched rows.

export function putRun(s: ThreadState, run: Run): void {
  s.runs.set(run.id, run);
  s.changed.set(run.id, "runs");
}

export function putAttempt(s: ThreadState, attempt: RunAttempt): void {
  if (!s.attempts.has(attempt.id)) pushTo(s.attemptIdsByRun, attempt.runId, attempt.id);
  s.attempts.set(attempt.id, attempt);
  s.changed.set(attempt.id, "attempts");
}

const OPEN_NODE_STATUSES: ReadonlySet<ExecutionNodeStatus> = new Set([
  "pending",
  "running",
  "waiting",
]);

export function putNode(s: ThreadState, node: ExecutionNode): void {
  const isNew = !s.nodes.has(node.id);
  s.nodes.set(node.id, node);
  s.changed.set(node.id, "nodes");
  if (isNew && node.runId) pushTo(s.nodeIdsByRun, node.runId, node.id);
  // E18: a weak (adapter-made) ref is kept on the node but never indexed for matching.
  if (isNew && node.providerTurnId && node.nativeItemRef && node.nativeRefStrength !== "weak") {
    s.nodeByNativeRef.set(nativeRefKey(node.providerTurnId, node.nativeItemRef), node.id);
  }
  if (!node.runId) return;
  let open = s.openNodesByRun.get(node.runId);
  if (OPEN_NODE_STATUSES.has(node.status)) {
    if (!open) {
      open = new Set();
      s.openNodesByRun.set(node.runId, open);
    }
    open.add(node.id);
  } else if (open) {
    open.delete(node.id);
    if (open.size === 0) s.openNodesByRun.delete(node.runId);
  }
}

export function putMessage(s: ThreadState, message: ConversationMessage): void {
  s.messages.set(message.id, message);
  s.changed.set(message.id, "messages");
  if (message.nodeId && message.role === "assistant")
    s.messageByNode.set(message.nodeId, message.id);
}

export function putPlan(s: ThreadState, plan: PlanArtifact): void {
  s.plans.set(plan.id, plan);
  s.changed.set(plan.id, "plans");
  s.planByNode.set(plan.nodeId, plan.id);
}

export function putProviderThread(s: ThreadState, providerThread: ProviderThread): void {
  s.providerThreads.set(providerThread.id, providerThread);
  s.changed.set(providerThread.id, "provider_threads");
}

export function putProviderTurn(s: ThreadState, turn: ProviderTurn): void {
  s.providerTurns.set(turn.id, turn);
  s.changed.set(turn.id, "provider_turns");
}

export function putRequest(s: ThreadState, request: RuntimeRequest): void {
  s.requests.set(request.id, request);
  s.changed.set(request.id, "requests");
}

export function putTransfer(s: ThreadState, transfer: ContextTransfer): void {
  s.transfers.set(transfer.id, transfer);
  s.changed.set(transfer.id, "transfers");
}

export function putHandoff(s: ThreadState, handoff: ContextHandoff): void {
  s.handoffs.set(handoff.id, handoff);
  s.changed.set(handoff.id, "handoffs");
}

/** Scopes have no projection table (docs/design.md); they live in the stream state only. */
export function putScope(s: ThreadState, scope: CheckpointScope): void {
  s.checkpointScopes.set(scope.id, scope);
}

export function putCheckpoint(s: ThreadState, checkpoint: Checkpoint): void {
  s.checkpoints.set(checkpoint.id, checkpoint);
  s.changed.set(checkpoint.id, "checkpoints");
}

/**
 * Appends a turn item at the thread's next sort key (P6 backend order). `subjectId` is the node,
 * plan, request or message the item shows, so later events find it in O(1).
 */
export function addItem(s: ThreadState, item: TurnItem, subjectId: string | null): void {
  const sortKey = s.nextItemSortKey;
  s.nextItemSortKey += 1;
  s.turnItems.set(item.id, { item, sortKey });
  s.changed.set(item.id, "turn_items");
  if (subjectId) s.itemBySubject.set(subjectId, item.id);
  if (item.runId) s.maxItemSortKeyByRun.set(item.runId, sortKey);
}

export function replaceItem(s: ThreadState, item: TurnItem): void {
  const entry = s.turnItems.get(item.id);
  if (!entry) return;
  s.turnItems.set(item.id, { item, sortKey: entry.sortKey });
  s.changed.set(item.id, "turn_items");
}

/** The item shown for a subject, updated by `patch` (status, updatedAt and variant fields). */
export function patchSubjectItem(
  s: ThreadState,
  subjectId: string,
  patch: (item: TurnItem) => TurnItem,
): void {
  const itemId = s.itemBySubject.get(subjectId);
  const entry = itemId ? s.turnItems.get(itemId) : undefined;
  if (entry) replaceItem(s, patch(entry.item));
}

const TERMINAL_ITEM_STATUSES: ReadonlySet<TurnItemStatus> = new Set([
  "completed",
  "failed",
  "interrupted",
  "cancelled",
  "declined",
]);

export function isTerminalItemStatus(status: TurnItemStatus): boolean {
  return TERMINAL_ITEM_STATUSES.has(status);
}

/** Ends a node (if still open) with its item and streaming message. */
export function finishNode(
  s: ThreadState,
  nodeId: NodeId,
  nodeStatus: ExecutionNodeStatus,
  itemStatus: TurnItemStatus,
  at: string,
): void {
  const node = s.nodes.get(nodeId);
  if (!node || !OPEN_NODE_STATUSES.has(node.status)) return;
  putNode(s, { ...node, status: nodeStatus, completedAt: at });
  patchSubjectItem(s, nodeId, (item) =>
    isTerminalItemStatus(item.status) ? item : withItemStatus(item, itemStatus, at),
  );
  const messageId = s.messageByNode.get(nodeId);
  const message = messageId ? s.messages.get(messageId) : undefined;
  if (message?.streaming) putMessage(s, { ...message, streaming: false, updatedAt: at });
}

export function withItemStatus(item: TurnItem, status: TurnItemStatus, at: string): TurnItem {
  if (item.type === "compaction" && status === "completed") {
    return { ...item, status, updatedAt: at, title: COMPACTION_COMPLETED_TITLE };
  }
  return { ...item, status, updatedAt: at };
}

export function openNodeIds(s: ThreadState, runId: RunId): NodeId[] {
  const open = s.openNodesByRun.get(runId);
  return open ? [...open] : [];
}

/** Marks the thread shell row dirty and records the activity time. */
export function touchShell(s: ThreadState, at: string): void {
  s.lastActivityAt = at;
  if (s.thread) s.changed.set(s.thread.id, "threads");
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
