import type { AppThread } from "../entities/app-thread.ts";
import type { TokenUsage } from "../entities/common.ts";
import type { Checkpoint } from "../entities/checkpoint.ts";
import type { CheckpointScope } from "../entities/checkpoint-scope.ts";
import type { ContextHandoff } from "../entities/context-handoff.ts";
import type { ContextTransfer } from "../entities/context-transfer.ts";
import type { ConversationMessage } from "../entities/conversation-message.ts";
import type { ExecutionNode } from "../entities/execution-node.ts";
import type { ForkInheritance } from "../entities/fork-inheritance.ts";
import type { PlanArtifact } from "../entities/plan-artifact.ts";
import type { PullRequestFact } from "../entities/pull-request.ts";
import type { ProviderThread } from "../entities/provider-thread.ts";
import type { ProviderTurn } from "../entities/provider-turn.ts";
import type { Run } from "../entities/run.ts";
import type { RunAttempt } from "../entities/run-attempt.ts";
import type { RuntimeRequest } from "../entities/runtime-request.ts";
import type { TurnItem } from "../entities/turn-item.ts";
import type { AsideRange } from "../projections/run-number.ts";
import type {
  CheckpointId,
  CheckpointScopeId,
  ContextHandoffId,
  ContextTransferId,
  MessageId,
  NodeId,
  PlanId,
  ProviderThreadId,
  ProviderTurnId,
  RunAttemptId,
  RunId,
  RuntimeRequestId,
  TurnItemId,
} from "../ids.ts";
import type { ProjectionTable } from "../projections/projection-write.ts";
import { usageLimitStands } from "../entities/usage-limit.ts";

export type TurnItemEntry = { item: TurnItem; sortKey: number };

/**
 * Everything one `thread-<id>` stream holds, plus derived caches that keep every `decide` check
 * and every `evolve` step O(1) amortized on threads with thousands of runs.
 *
 * `evolve` updates these Maps IN PLACE and returns the same object: copying 20k turn items per
 * event is not an option. Callers therefore evolve only after the events were committed, and
 * `decide` only reads. Entity objects themselves are replaced, never mutated, so a row handed to
 * the store keeps the value it had when it was projected.
 */
export type ThreadState = {
  kind: "thread";
  thread: AppThread | null;
  /** Set on forks: how the source's turn items are read by reference (P7). */
  inheritance: ForkInheritance | null;
  runs: Map<RunId, Run>;
  /** Run ids by ordinal (index = ordinal - 1). */
  runOrder: RunId[];
  attempts: Map<RunAttemptId, RunAttempt>;
  nodes: Map<NodeId, ExecutionNode>;
  messages: Map<MessageId, ConversationMessage>;
  plans: Map<PlanId, PlanArtifact>;
  providerThreads: Map<ProviderThreadId, ProviderThread>;
  providerTurns: Map<ProviderTurnId, ProviderTurn>;
  requests: Map<RuntimeRequestId, RuntimeRequest>;
  transfers: Map<ContextTransferId, ContextTransfer>;
  handoffs: Map<ContextHandoffId, ContextHandoff>;
  checkpointScopes: Map<CheckpointScopeId, CheckpointScope>;
  checkpoints: Map<CheckpointId, Checkpoint>;
  turnItems: Map<TurnItemId, TurnItemEntry>;
  /** The sort key the next turn item gets (P6 backend order); starts at 1. */
  nextItemSortKey: number;

  // Derived caches.
  /** The run in starting/running/waiting; at most one. */
  activeRunId: RunId | null;
  /** Queued runs in FIFO order (Set keeps insertion order). */
  queuedRunIds: Set<RunId>;
  latestCompletedRunId: RunId | null;
  /** Latest completed run whose root checkpoint is ready (T2). */
  latestStableRunId: RunId | null;
  /** Latest run that ended completed/interrupted/failed; drives the shell status. */
  lastSettledRunId: RunId | null;
  pendingRequestIds: Set<RuntimeRequestId>;
  pendingRequestsByRun: Map<RunId, number>;
  /** Non-terminal nodes per run, so turn ends and recovery touch only live work. */
  openNodesByRun: Map<RunId, Set<NodeId>>;
  attemptIdsByRun: Map<RunId, RunAttemptId[]>;
  nodeIdsByRun: Map<RunId, NodeId[]>;
  /** Highest turn-item sort key per run: the P7 cutoff of a fork at that run. */
  maxItemSortKeyByRun: Map<RunId, number>;
  /** Nodes under a subagent node: kept in the graph, hidden from the thread's turnItems. */
  hiddenNodeIds: Set<NodeId>;
  /** The turn item shown for a node, plan, request or message id. */
  itemBySubject: Map<string, TurnItemId>;
  messageByNode: Map<NodeId, MessageId>;
  planByNode: Map<NodeId, PlanId>;
  /** `${providerTurnId}|${nativeItemRef}` → node, to correlate runtime events. */
  nodeByNativeRef: Map<string, NodeId>;
  turnCountByProviderThread: Map<ProviderThreadId, number>;
  runningTurnsByProviderThread: Map<ProviderThreadId, number>;
  checkpointCountByScope: Map<CheckpointScopeId, number>;
  childScopeCount: Map<CheckpointScopeId, number>;
  lastRootCheckpointId: CheckpointId | null;
  /** Ordinals of rolled-back runs, ascending, so forks can exclude them cheaply. */
  rolledBackRunOrdinals: number[];
  cancelledRunCount: number;
  /** E3: standing runs that are not turns of the conversation (compaction, imported, system). */
  asideRunCount: number;
  /** E3: ordinals of every compaction, imported and system run (whatever became of it), as ranges. */
  asideRuns: AsideRange[];
  /** Issue 33: when a deleted thread's worktree and checkpoint refs were removed. */
  purgedAt: string | null;
  lastActivityAt: string | null;
  /** Token usage of every run of the thread, summed as turns end (the shell's `usage`). */
  usageTotal: TokenUsage | null;
  /** B17: keys of the pull-request facts recorded (each is recorded once). */
  pullRequestKeys: Set<string>;
  /**
   * B17: the latest review comment and check facts by subject (`comment:<id>`, `check:<id>`), what
   * feedback to the agent quotes.
   */
  pullRequestFeedback: Map<string, PullRequestFact>;
  /** Subjects already sent to the agent. */
  pullRequestSentSubjects: Set<string>;
  /** Rows touched by the last evolved event (id → table); reset by every evolve. */
  changed: Map<string, ProjectionTable>;
};

export function initialThreadState(): ThreadState {
  return {
    kind: "thread",
    thread: null,
    inheritance: null,
    runs: new Map(),
    runOrder: [],
    attempts: new Map(),
    nodes: new Map(),
    messages: new Map(),
    plans: new Map(),
    providerThreads: new Map(),
    providerTurns: new Map(),
    requests: new Map(),
    transfers: new Map(),
    handoffs: new Map(),
    checkpointScopes: new Map(),
    checkpoints: new Map(),
    turnItems: new Map(),
    nextItemSortKey: 1,
    activeRunId: null,
    queuedRunIds: new Set(),
    latestCompletedRunId: null,
    latestStableRunId: null,
    lastSettledRunId: null,
    pendingRequestIds: new Set(),
    pendingRequestsByRun: new Map(),
    openNodesByRun: new Map(),
    attemptIdsByRun: new Map(),
    nodeIdsByRun: new Map(),
    maxItemSortKeyByRun: new Map(),
    hiddenNodeIds: new Set(),
    itemBySubject: new Map(),
    messageByNode: new Map(),
    planByNode: new Map(),
    nodeByNativeRef: new Map(),
    turnCountByProviderThread: new Map(),
    runningTurnsByProviderThread: new Map(),
    checkpointCountByScope: new Map(),
    childScopeCount: new Map(),
    lastRootCheckpointId: null,
    rolledBackRunOrdinals: [],
    cancelledRunCount: 0,
    asideRunCount: 0,
    asideRuns: [],
    purgedAt: null,
    lastActivityAt: null,
    usageTotal: null,
    pullRequestKeys: new Set(),
    pullRequestFeedback: new Map(),
    pullRequestSentSubjects: new Set(),
    changed: new Map(),
  };
}

export function nativeRefKey(providerTurnId: ProviderTurnId, nativeItemRef: string): string {
  return `${providerTurnId}|${nativeItemRef}`;
}

/** The node a runtime event's native item ref points at, if the app has seen it. */
export function findNodeByNativeItemRef(
  state: ThreadState,
  providerTurnId: ProviderTurnId,
  nativeItemRef: string,
): ExecutionNode | undefined {
  const nodeId = state.nodeByNativeRef.get(nativeRefKey(providerTurnId, nativeItemRef));
  return nodeId ? state.nodes.get(nodeId) : undefined;
}

/** The turn item currently shown for a node/plan/request/message id. */
export function itemForSubject(state: ThreadState, subjectId: string): TurnItemEntry | undefined {
  const itemId = state.itemBySubject.get(subjectId);
  return itemId ? state.turnItems.get(itemId) : undefined;
}

export function runByOrdinal(state: ThreadState, ordinal: number): Run | undefined {
  const id = state.runOrder[ordinal - 1];
  return id ? state.runs.get(id) : undefined;
}

/** The next queued run (FIFO), if any. */
export function nextQueuedRun(state: ThreadState): Run | undefined {
  // Issue 32: while a usage limit stands, its provider's runs stay queued as they are (they
  // would only fail at the same limit); a run for another provider (a switch) may go.
  const limit = state.thread?.usageLimit;
  const held = usageLimitStands(limit) ? limit?.provider : undefined;
  for (const id of state.queuedRunIds) {
    const run = state.runs.get(id);
    // Only a run still `queued` can be dispatched; anything else would be picked again forever.
    if (run?.status === "queued" && run.provider !== held) return run;
  }
  return undefined;
}
