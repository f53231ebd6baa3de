"use client";
import { useCallback, useMemo } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { buildGraphModel } from "../../lib/graph-model.ts";
import { useShells } from "../../lib/shells-store.tsx";
import type { ThreadGraph } from "../../lib/types.ts";
import { useThread } from "../../lib/use-thread-context.tsx";
import type { WatchSubscribe } from "../../lib/use-watch.ts";
import { queryKeys } from "../../lib/query/keys.ts";
import { ActionError } from "../common/action-error.tsx";
import { useWatchedQuery } from "../../lib/query/use-watched-query.ts";
import { ProviderThreadsTable } from "./provider-threads-table.tsx";
import { GraphCanvas } from "./graph-canvas.tsx";
import { TransferEdges } from "./transfer-edges.tsx";

/** Graph events come in bursts (a turn's start or end is several events): one read per burst. */
const GRAPH_REFRESH_MS = 150;

/**
 * P3, the developer view: threads, runs, attempts, provider threads and transfers as a
 * node-link graph, then the provider threads' run coverage and the transfers as tables. Live
 * through `thread.watchGraph`: its snapshot, then the graph query invalidated once per burst of
 * graph events.
 */
export function GraphView() {
  const client = useApi();
  const { threadId } = useThread();
  const { shells } = useShells();
  const subscribe = useCallback<WatchSubscribe<ThreadGraph>>(
    (lastEventId, observer) =>
      client.thread.watchGraph.subscribe({ threadId, lastEventId }, observer),
    [client, threadId],
  );
  const {
    data: graph,
    watch,
    error: readError,
    refresh,
  } = useWatchedQuery<ThreadGraph>({
    queryKey: queryKeys.graph(threadId),
    subscribe,
    read: () => client.thread.graph.query({ threadId }),
    delayMs: GRAPH_REFRESH_MS,
  });
  const error = readError ?? (watch.status === "failed" ? watch.error : null);
  const model = useMemo(() => (graph ? buildGraphModel(graph, shells) : null), [graph, shells]);

  if (graph === null || model === null) {
    return (
      <div className="page">
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : (
          <p className="muted">Loading graph…</p>
        )}
      </div>
    );
  }
  return (
    <div className="page graph" data-graph-sequence={graph.snapshotSequence}>
      <ActionError error={readError} prefix="Refreshing the graph failed." onRetry={refresh} />
      <h2>Execution graph</h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <GraphCanvas model={model} />
      <ProviderThreadsTable graph={graph} />
      <TransferEdges graph={graph} />
    </div>
  );
}
