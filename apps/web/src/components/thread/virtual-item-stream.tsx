"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type RefObject, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { PendingRequest, Run, TurnItem } from "../../lib/types.ts";
import { useRunNumber } from "../../lib/use-run-number.ts";
import { RunHeader } from "./run-header.tsx";
import { StableItem } from "./stable-item.tsx";

/** Below this many items the whole stream renders (find-in-page and tests see everything). */
export const VIRTUALIZE_FROM = 200;
const ESTIMATE_PX = 72;

type Props = {
  items: readonly TurnItem[];
  runs: ReadonlyMap<string, Run>;
  pendingRequests: ReadonlyMap<string, PendingRequest>;
  scroller: RefObject<HTMLDivElement | null>;
  /** The reader is at the bottom: keep the newest item in view as the stream grows. */
  stick: RefObject<boolean>;
  onFork?: (run: Run) => void;
  forking?: boolean;
  retryRunId?: string | null;
  onRetry?: (run: Run) => void;
  retrying?: boolean;
};

/**
 * The item stream of a long thread, windowed by @tanstack/react-virtual: only the items in view
 * (plus overscan) exist in the DOM, each measured as it renders, so opening a 1,000-run thread or
 * streaming into it costs what is on screen. Same order and run headers as ItemStream (P6).
 */
export function VirtualItemStream({
  items,
  runs,
  pendingRequests,
  scroller,
  stick,
  onFork,
  forking,
  retryRunId,
  onRetry,
  retrying,
}: Props) {
  const numberOf = useRunNumber();
  const list = useRef<HTMLDivElement>(null);
  // Where the list starts inside the scroller (the inherited section and marker come first).
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const element = list.current;
    const outer = scroller.current;
    if (!element || !outer) return;
    const top =
      element.getBoundingClientRect().top - outer.getBoundingClientRect().top + outer.scrollTop;
    setMargin((previous) => (Math.abs(previous - top) < 1 ? previous : Math.round(top)));
  });
  const startsRun = useMemo(() => {
    let previous: string | null = null;
    return items.map((item) => {
      const starts = item.runId !== null && item.runId !== previous;
      if (item.runId !== null) previous = item.runId;
      return starts;
    });
  }, [items]);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (startsRun[index] ? ESTIMATE_PX + 40 : ESTIMATE_PX),
    getItemKey: (index) => items[index]!.id,
    overscan: 6,
    scrollMargin: margin,
    // Open at the newest item: the first render already lays out the end of the thread.
    initialOffset: () => items.length * (ESTIMATE_PX + 20),
  });

  // Follow the newest item while the reader is at the bottom (also once sizes are measured).
  const count = items.length;
  const total = virtualizer.getTotalSize();
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow on growth and re-measure
  useLayoutEffect(() => {
    if (stick.current && count > 0) virtualizer.scrollToIndex(count - 1, { align: "end" });
  }, [count, total, items]);

  const rows = virtualizer.getVirtualItems();
  return (
    <div
      ref={list}
      className="virtual-stream"
      data-items={items.length}
      style={{ height: total, position: "relative" }}
    >
      {rows.map((row) => {
        const item = items[row.index]!;
        return (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className="virtual-stream-row"
            style={{ transform: `translateY(${row.start - margin}px)` }}
          >
            {startsRun[row.index] && (
              <RunHeader
                run={runs.get(item.runId!)}
                numberOf={numberOf}
                threadId={item.threadId}
                ordinal={item.runOrdinal}
                provider={item.provider}
                inherited={false}
                {...(onFork ? { onFork } : {})}
                {...(forking !== undefined ? { forking } : {})}
                {...(onRetry && item.runId === retryRunId ? { onRetry, retrying: !!retrying } : {})}
              />
            )}
            <StableItem item={item} pendingRequests={pendingRequests} />
          </div>
        );
      })}
    </div>
  );
}
