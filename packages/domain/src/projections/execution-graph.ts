import type { ExecutionNode } from "../entities/execution-node.ts";
import type { ProviderThread } from "../entities/provider-thread.ts";
import type { ProviderTurn } from "../entities/provider-turn.ts";
import type { Run } from "../entities/run.ts";
import type { RunAttempt } from "../entities/run-attempt.ts";
import type { RuntimeRequest } from "../entities/runtime-request.ts";
import type { ProjectionRow } from "./projection-write.ts";
import { sortedData } from "./thread-detail.ts";

export type GraphNode = {
  node: ExecutionNode;
  request: RuntimeRequest | null;
  children: GraphNode[];
};
export type GraphAttempt = {
  attempt: RunAttempt;
  providerTurn: ProviderTurn | null;
  root: GraphNode | null;
};
/** P3: runs → attempts → node trees, with provider refs on every level. */
export type ExecutionGraph = {
  runs: { run: Run; attempts: GraphAttempt[] }[];
  providerThreads: ProviderThread[];
};

export function assembleExecutionGraph(rows: {
  runs: readonly ProjectionRow<Run>[];
  attempts: readonly ProjectionRow<RunAttempt>[];
  nodes: readonly ProjectionRow<ExecutionNode>[];
  providerTurns: readonly ProjectionRow<ProviderTurn>[];
  providerThreads: readonly ProjectionRow<ProviderThread>[];
  requests: readonly ProjectionRow<RuntimeRequest>[];
}): ExecutionGraph {
  const requestByNode = new Map(rows.requests.map((r) => [r.data.nodeId as string, r.data]));
  const turns = new Map(rows.providerTurns.map((t) => [t.id, t.data]));
  const graphNodes = new Map<string, GraphNode>();
  const nodes = rows.nodes.map((r) => r.data);
  nodes.sort(
    (a, b) => compareText(a.startedAt ?? "", b.startedAt ?? "") || compareText(a.id, b.id),
  );
  for (const node of nodes) {
    graphNodes.set(node.id, { node, request: requestByNode.get(node.id) ?? null, children: [] });
  }
  for (const graphNode of graphNodes.values()) {
    const parentId = graphNode.node.parentNodeId;
    const parent = parentId ? graphNodes.get(parentId) : undefined;
    if (parent) parent.children.push(graphNode);
  }
  const attemptsByRun = new Map<string, GraphAttempt[]>();
  for (const attempt of sortedData(rows.attempts)) {
    const list = attemptsByRun.get(attempt.runId) ?? [];
    list.push({
      attempt,
      providerTurn: attempt.providerTurnId ? (turns.get(attempt.providerTurnId) ?? null) : null,
      root: graphNodes.get(attempt.rootNodeId) ?? null,
    });
    attemptsByRun.set(attempt.runId, list);
  }
  for (const list of attemptsByRun.values()) {
    list.sort((a, b) => a.attempt.attemptOrdinal - b.attempt.attemptOrdinal);
  }
  return {
    runs: sortedData(rows.runs).map((run) => ({ run, attempts: attemptsByRun.get(run.id) ?? [] })),
    providerThreads: rows.providerThreads.map((r) => r.data),
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
