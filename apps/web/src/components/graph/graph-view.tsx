"use client";
import { useEffect, useMemo, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { errorMessage } from "../../lib/errors.ts";
import { buildGraphModel } from "../../lib/graph-model.ts";
import { RefreshScheduler } from "../../lib/refresh-scheduler.ts";
import { useShells } from "../../lib/shells-store.tsx";
import type { ThreadGraph } from "../../lib/types.ts";
import { useThread } from "../../lib/use-thread-context.tsx";
import { ProviderThreadsTable } from "./provider-threads-table.tsx";
import { GraphCanvas } from "./graph-canvas.tsx";
import { TransferEdges } from "./transfer-edges.tsx";

/**
 * P3, the developer view: threads, runs, attempts, provider threads and transfers as a
 * node-link graph, then the provider threads' run coverage and the transfers as tables. Re-read (coalesced)
 * whenever the live detail moves.
 */
export function GraphView() {
  const client = useApi();
  const { detail, threadId } = useThread();
  const [graph, setGraph] = useState<ThreadGraph | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { shells } = useShells();
  const model = useMemo(() => (graph ? buildGraphModel(graph, shells) : null), [graph, shells]);
  const scheduler = useMemo(
    () =>
      new RefreshScheduler(async () => {
        try {
          const next = await client.thread.graph.query({ threadId });
          setGraph((prev) =>
            prev !== null && prev.snapshotSequence > next.snapshotSequence ? prev : next,
          );
          setError(null);
        } catch (caught) {
          setError(errorMessage(caught));
          throw caught;
        }
      }, 300),
    [client, threadId],
  );
  useEffect(() => () => scheduler.dispose(), [scheduler]);
  const sequence = detail?.snapshotSequence;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new detail sequence re-reads
  useEffect(() => scheduler.request(), [scheduler, sequence]);

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
    <div className="page graph">
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
