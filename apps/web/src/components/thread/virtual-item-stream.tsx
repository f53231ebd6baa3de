"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type RefObject, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { PendingRequest, Run, TurnItem } from "../../lib/types.ts";
import { useLineage } from "../../lib/use-run-number.ts";
import { type StreamActions, StreamEntry } from "./stream-entry.tsx";

/** Below this many items the whole stream renders (find-in-page and tests see everything). */
export const VIRTUALIZE_FROM = 200;
const ESTIMATE_PX = 72;
/** Rows drawn beyond the view, so a scroll finds them ready. */
const OVERSCAN = 6;

type Props = {
  items: readonly TurnItem[];
  runs: ReadonlyMap<string, Run>;
  pendingRequests: ReadonlyMap<string, PendingRequest>;
  scroller: RefObject<HTMLDivElement | null>;
  /** The reader is at the bottom: keep the newest item in view as the stream grows. */
  stick: RefObject<boolean>;
} & StreamActions;

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
  ...actions
}: Props) {
  const lineage = useLineage();
  const list = useRef<HTMLDivElement>(null);
  // The scroller is an ancestor's element: on the commit that mounts both (a thread opening),
  // its ref is attached only after this component's layout effects ran, so the virtualizer found
  // no scroll element, drew no row, and waited for a re-render that an idle thread may never
  // get. The list's own ref is set by then, and the scroller is the list's ancestor.
  const scrollElement = () =>
    scroller.current ?? list.current?.closest<HTMLDivElement>(".conversation-scroll") ?? null;
  // Where the list starts inside the scroller (the inherited section and marker come first).
  // Measured when what is above it changes or resizes (a ResizeObserver reports after layout),
  // not on every render: a streamed reply re-renders the list each frame, and reading its
  // position there forced a layout of the thread in every frame.
  const [margin, setMargin] = useState(0);
  const above = useRef<{ elements: HTMLElement[]; observer: ResizeObserver } | null>(null);
  useLayoutEffect(() => {
    const element = list.current;
    const outer = scrollElement();
    if (!element || !outer) return;
    const elements = elementsAbove(element, outer);
    const watched = above.current;
    if (watched && sameElements(watched.elements, elements)) return;
    watched?.observer.disconnect();
    const measure = () => {
      const top =
        element.getBoundingClientRect().top - outer.getBoundingClientRect().top + outer.scrollTop;
      setMargin((previous) => (Math.abs(previous - top) < 1 ? previous : Math.round(top)));
    };
    const observer = new ResizeObserver(measure);
    for (const each of elements) observer.observe(each);
    above.current = { elements, observer };
    measure();
  });
  useLayoutEffect(() => () => above.current?.observer.disconnect(), []);
  // A thread opens at the cost of one screen: the first frame draws only the rows in view (a
  // switch to a long thread waits for it), and the rows around them follow once it is painted.
  const [overscan, setOverscan] = useState(1);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The task after the next frame: that frame has been painted by then.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setOverscan(OVERSCAN), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
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
    getScrollElement: scrollElement,
    estimateSize: (index) => (startsRun[index] ? ESTIMATE_PX + 40 : ESTIMATE_PX),
    getItemKey: (index) => items[index]!.id,
    overscan,
    // A scroll renders the rows synchronously (flushSync) so a reader scrolling never sees a
    // gap; at the bottom the scrolls are this list's own follow-the-reply writes, which can
    // render with the next update instead of a second render per streamed frame.
    useFlushSync: !stick.current,
    scrollMargin: margin,
    // Open at the newest item: the first render already lays out the end of the thread.
    initialOffset: () => items.length * (ESTIMATE_PX + 20),
  });

  // Older runs prepended above what the reader looks at must not move it: after each commit the
  // item at the top of the view is remembered with its place on screen; when its index changes
  // (a window landed above it), the view jumps to its estimated offset and then, over the next
  // frames (while the rows drawn on the way are measured), is nudged until the item is back on
  // the same pixel.
  const anchor = useRef<{ key: string; index: number; into: number; top: number } | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the items change
  useLayoutEffect(() => {
    const kept = anchor.current;
    const element = scrollElement();
    if (!kept || !element || stick.current || items[kept.index]?.id === kept.key) return;
    const index = items.findIndex((item) => item.id === kept.key);
    const start = index < 0 ? undefined : virtualizer.measurementsCache[index]?.start;
    if (start === undefined) return;
    virtualizer.scrollToOffset(start + kept.into);
    let frames = 4;
    const settle = () => {
      const row = rowOf(element, kept.key);
      if (row) {
        const drift =
          row.getBoundingClientRect().top - element.getBoundingClientRect().top - kept.top;
        if (Math.abs(drift) >= 0.5) element.scrollTop += drift;
      }
      frames -= 1;
      if (frames > 0) requestAnimationFrame(settle);
    };
    requestAnimationFrame(settle);
  }, [items]);
  useLayoutEffect(() => {
    const element = scrollElement();
    if (!element) return;
    const top = virtualizer.scrollOffset ?? 0;
    const row = virtualizer.getVirtualItems().find((r) => r.end > top);
    const drawn = row ? rowOf(element, String(row.key)) : null;
    anchor.current =
      row && drawn
        ? {
            key: String(row.key),
            index: row.index,
            into: top - row.start,
            top: drawn.getBoundingClientRect().top - element.getBoundingClientRect().top,
          }
        : null;
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
            data-item-key={item.id}
            ref={virtualizer.measureElement}
            className="virtual-stream-row"
            style={{ transform: `translateY(${row.start - margin}px)` }}
          >
            <StreamEntry
              item={item}
              startsRun={startsRun[row.index]!}
              runs={runs}
              pendingRequests={pendingRequests}
              inherited={false}
              lineage={lineage}
              actions={actions}
            />
          </div>
        );
      })}
    </div>
  );
}

/** The elements before `element` inside `outer` (at every level): what can move the list down. */
function elementsAbove(element: HTMLElement, outer: HTMLElement): HTMLElement[] {
  const above: HTMLElement[] = [];
  for (let node: HTMLElement | null = element; node && node !== outer; node = node.parentElement) {
    for (
      let sibling = node.previousElementSibling;
      sibling;
      sibling = sibling.previousElementSibling
    ) {
      if (sibling instanceof HTMLElement) above.push(sibling);
    }
  }
  return above;
}

function sameElements(a: readonly HTMLElement[], b: readonly HTMLElement[]): boolean {
  return a.length === b.length && a.every((element, index) => element === b[index]);
}

/** The drawn row of the item with this id, if it is in the DOM. */
function rowOf(scroller: HTMLElement, itemId: string): HTMLElement | null {
  return scroller.querySelector<HTMLElement>(
    `.virtual-stream-row[data-item-key="${CSS.escape(itemId)}"]`,
  );
}
