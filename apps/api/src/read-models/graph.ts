import type { ProjectionQuery } from "@skein/db";
import {
  assembleExecutionGraph,
  type ContextHandoff,
  type ContextTransfer,
  type ExecutionGraph,
  type ExecutionNode,
  NotFoundError,
  type ProviderSession,
  type ProviderThread,
  type ProviderTurn,
  type Run,
  type RunAttempt,
  type RuntimeRequest,
  type ThreadId,
  type ThreadShell,
} from "@skein/domain";
import { getData, listRows } from "./rows.ts";

/** P3 (developer view): the run → attempt → node trees plus every provider ref behind them. */
export type ThreadGraphData = {
  thread: ThreadShell;
  /** Runs with their attempts and node trees (`assembleExecutionGraph`). */
  runs: ExecutionGraph["runs"];
  /** Every execution node of the thread, flat, in start order. */
  nodes: ExecutionNode[];
  providerSessions: ProviderSession[];
  providerThreads: ProviderThread[];
  providerTurns: ProviderTurn[];
  transfers: ContextTransfer[];
  handoffs: ContextHandoff[];
};

export async function readThreadGraph(
  query: ProjectionQuery,
  threadId: ThreadId,
): Promise<ThreadGraphData> {
  const thread = await getData<ThreadShell>(query, "threads", threadId);
  if (thread === undefined) throw new NotFoundError("thread", threadId);
  const [runs, attempts, nodes, providerTurns, providerThreads, requests, transfers, handoffs] =
    await Promise.all([
      listRows<Run>(query, "runs", threadId),
      listRows<RunAttempt>(query, "attempts", threadId),
      listRows<ExecutionNode>(query, "nodes", threadId),
      listRows<ProviderTurn>(query, "provider_turns", threadId),
      listRows<ProviderThread>(query, "provider_threads", threadId),
      listRows<RuntimeRequest>(query, "requests", threadId),
      listRows<ContextTransfer>(query, "transfers", threadId),
      listRows<ContextHandoff>(query, "handoffs", threadId),
    ]);
  const graph = assembleExecutionGraph({
    runs,
    attempts,
    nodes,
    providerTurns,
    providerThreads,
    requests,
  });
  const sessionIds = new Set<string>();
  for (const row of providerThreads) {
    if (row.data.providerSessionId) sessionIds.add(row.data.providerSessionId);
  }
  const providerSessions: ProviderSession[] = [];
  for (const id of [...sessionIds].sort()) {
    const session = await getData<ProviderSession>(query, "provider_sessions", id);
    if (session !== undefined) providerSessions.push(session);
  }
  const flatNodes: ExecutionNode[] = [];
  const walk = (list: readonly { node: ExecutionNode; children: typeof list }[]) => {
    for (const entry of list) {
      flatNodes.push(entry.node);
      walk(entry.children);
    }
  };
  for (const run of graph.runs) {
    for (const attempt of run.attempts) if (attempt.root) walk([attempt.root]);
  }
  // Nodes no attempt reaches (e.g. orphaned by a superseded attempt) still belong in the audit.
  const reached = new Set(flatNodes.map((node) => node.id));
  for (const row of nodes) if (!reached.has(row.data.id)) flatNodes.push(row.data);
  return {
    thread,
    runs: graph.runs,
    nodes: flatNodes,
    providerSessions,
    providerThreads: graph.providerThreads,
    providerTurns: providerTurns.map((row) => row.data),
    transfers: transfers.map((row) => row.data),
    handoffs: handoffs.map((row) => row.data),
  };
}
