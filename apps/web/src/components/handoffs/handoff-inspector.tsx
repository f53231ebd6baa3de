"use client";
import { useThread } from "../../lib/use-thread-context.tsx";
import { TransferCard } from "./transfer-card.tsx";

/**
 * Every context transfer that targets this thread (its fork, provider switches, merge-backs):
 * what was carried over, how, and the exact text the target provider received (T11).
 */
export function HandoffInspector() {
  const { detail } = useThread();
  if (detail === null) return null;
  const transfers = [...detail.transfers].reverse();
  return (
    <div className="page handoff-inspector">
      <h2>Handoffs and transfers</h2>
      {transfers.length === 0 ? (
        <p className="muted">
          Nothing was carried into this thread yet. Forks, provider switches and "bring back"
          messages create transfers; their handoff text appears here once it is built.
        </p>
      ) : (
        transfers.map((transfer) => (
          <TransferCard key={transfer.id} transfer={transfer} runs={detail.runs} />
        ))
      )}
    </div>
  );
}
