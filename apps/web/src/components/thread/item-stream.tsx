"use client";
import type { PendingRequest, Run, TurnItem } from "../../lib/types.ts";
import { useLineage } from "../../lib/use-run-number.ts";
import { type StreamActions, StreamEntry } from "./stream-entry.tsx";

/**
 * Items exactly in backend order (P6), with a run header wherever the run changes. Nothing is
 * sorted or merged here; grouping is only a visual break inserted between neighbours. Headers
 * and items are memoized: while a reply streams only its own item renders again.
 */
export function ItemStream({
  items,
  runs,
  pendingRequests,
  inherited,
  ...actions
}: {
  items: readonly TurnItem[];
  runs: ReadonlyMap<string, Run>;
  pendingRequests: ReadonlyMap<string, PendingRequest>;
  inherited: boolean;
} & StreamActions) {
  const lineage = useLineage();
  let previousRun: string | null = null;
  return (
    <>
      {items.map((item) => {
        const startsRun = item.runId !== null && item.runId !== previousRun;
        if (item.runId !== null) previousRun = item.runId;
        return (
          <StreamEntry
            key={item.id}
            item={item}
            startsRun={startsRun}
            runs={runs}
            pendingRequests={pendingRequests}
            inherited={inherited}
            lineage={lineage}
            actions={actions}
          />
        );
      })}
    </>
  );
}
