import type { ProjectionQuery } from "@skein/db";
import {
  assembleExecutionGraph,
  type ContextHandoff,
  type ContextTransfer,
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
import type { ThreadGraphData } from "@skein/contract";

/** Defined by the contract (the router's output types); re-exported for the read side. */
export type { ThreadGraphData };

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
