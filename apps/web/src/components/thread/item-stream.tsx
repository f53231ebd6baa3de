"use client";
import { Fragment } from "react";
import type { PendingRequest, Run, TurnItem } from "../../lib/types.ts";
import { useLineage } from "../../lib/use-run-number.ts";
import { RunHeader } from "./run-header.tsx";
import { ItemForkButton } from "./item-fork-button.tsx";
import { StableItem } from "./stable-item.tsx";

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
  onFork,
  onForkItem,
  forking,
  retryRunId,
  onRetry,
  retrying,
  limitNote,
}: {
  items: readonly TurnItem[];
  runs: ReadonlyMap<string, Run>;
  pendingRequests: ReadonlyMap<string, PendingRequest>;
  inherited: boolean;
  onFork?: (run: Run) => void;
  /** E12: fork from one item; absent where items cannot be forked from (inherited ones). */
  onForkItem?: (item: TurnItem) => void;
  forking?: boolean;
  retryRunId?: string | null;
  onRetry?: (run: Run) => void;
  retrying?: boolean;
  /** Issue 32: the run a standing usage limit failed, and what its header says about it. */
  limitNote?: { runId: string; text: string } | null;
}) {
  const { numberOf, asideRunsOf } = useLineage();
  let previousRun: string | null = null;
  return (
    <>
      {items.map((item) => {
        const startsRun = item.runId !== null && item.runId !== previousRun;
        if (item.runId !== null) previousRun = item.runId;
        return (
          <Fragment key={item.id}>
            {startsRun && (
              <RunHeader
                run={inherited ? undefined : runs.get(item.runId!)}
                numberOf={numberOf}
                asideRunsOf={asideRunsOf}
                threadId={item.threadId}
                ordinal={item.runOrdinal}
                provider={item.provider}
                inherited={inherited}
                {...(onFork ? { onFork } : {})}
                {...(forking !== undefined ? { forking } : {})}
                {...(onRetry && item.runId === retryRunId ? { onRetry, retrying: !!retrying } : {})}
                {...(limitNote && item.runId === limitNote.runId
                  ? { limitNote: limitNote.text }
                  : {})}
              />
            )}
            <StableItem item={item} pendingRequests={pendingRequests} />
            {onForkItem && item.runId !== null && (
              <ItemForkButton
                item={item}
                run={runs.get(item.runId)}
                onForkItem={onForkItem}
                forking={!!forking}
              />
            )}
          </Fragment>
        );
      })}
    </>
  );
}
