"use client";
import type { PendingRequest, Run, TurnItem } from "../../lib/types.ts";
import type { useLineage } from "../../lib/use-run-number.ts";
import { ItemForkButton } from "./item-fork-button.tsx";
import { RunHeader } from "./run-header.tsx";
import { StableItem } from "./stable-item.tsx";

/** What a stream offers on its items and run headers (the plain and the virtualized stream alike). */
export type StreamActions = {
  onFork?: (run: Run) => void;
  /** E12: fork from one item; absent where items cannot be forked from (inherited ones). */
  onForkItem?: (item: TurnItem) => void;
  forking?: boolean;
  retryRunId?: string | null;
  onRetry?: (run: Run) => void;
  retrying?: boolean;
  /** Issue 32: the run a standing usage limit failed, and what its header says about it. */
  limitNote?: { runId: string; text: string } | null;
};

/** One item of a stream, preceded by its run's header where the run changes (P6). */
export function StreamEntry({
  item,
  startsRun,
  runs,
  pendingRequests,
  inherited,
  lineage,
  actions,
}: {
  item: TurnItem;
  startsRun: boolean;
  runs: ReadonlyMap<string, Run>;
  pendingRequests: ReadonlyMap<string, PendingRequest>;
  inherited: boolean;
  lineage: ReturnType<typeof useLineage>;
  actions: StreamActions;
}) {
  const { onFork, onForkItem, forking, retryRunId, onRetry, retrying, limitNote } = actions;
  return (
    <>
      {startsRun && (
        <RunHeader
          run={inherited ? undefined : runs.get(item.runId!)}
          numberOf={lineage.numberOf}
          asideRunsOf={lineage.asideRunsOf}
          threadId={item.threadId}
          ordinal={item.runOrdinal}
          provider={item.provider}
          inherited={inherited}
          {...(onFork ? { onFork } : {})}
          {...(forking !== undefined ? { forking } : {})}
          {...(onRetry && item.runId === retryRunId ? { onRetry, retrying: !!retrying } : {})}
          {...(limitNote && item.runId === limitNote.runId ? { limitNote: limitNote.text } : {})}
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
    </>
  );
}
