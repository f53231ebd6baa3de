"use client";
import { useEffect, useMemo, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { errorMessage } from "../../lib/errors.ts";
import { RefreshScheduler } from "../../lib/refresh-scheduler.ts";
import type { ThreadGraph } from "../../lib/types.ts";
import { useThread } from "../../lib/use-thread-context.tsx";
import { ProviderThreadsTable } from "./provider-threads-table.tsx";
import { RunTree } from "./run-tree.tsx";
import { TransferEdges } from "./transfer-edges.tsx";

/**
 * P3, the developer view: run → attempt → node trees with provider refs, the provider threads
 * behind them with their run coverage, and the transfers between threads. Re-read (coalesced)
 * whenever the live detail moves.
 */
export function GraphView() {
  const client = useApi();
  const { detail, threadId } = useThread();
  const [graph, setGraph] = useState<ThreadGraph | null>(null);
  const [error, setError] = useState<string | null>(null);
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

  if (graph === null) {
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
      <RunTree graph={graph} />
      <ProviderThreadsTable graph={graph} />
      <TransferEdges graph={graph} />
    </div>
  );
}
