"use client";
import { memo, type ReactNode, useEffect, useRef, useState } from "react";
import { visibleRange } from "../../lib/virtual-window.ts";

type VirtualListProps<T> = {
  /** An array, or a list that makes its items as they are read (only the drawn ones are). */
  items: { readonly length: number; at(index: number): T | undefined };
  rowHeight: number;
  getKey(item: T): string;
  renderRow(item: T, index: number): ReactNode;
  label: string;
};

/**
 * Fixed-height windowing by hand: only the rows in view (plus overscan) exist in the DOM, each
 * absolutely placed inside a spacer as tall as the whole list, so 10,000 rows scroll like 40.
 * Scroll updates are folded into one per animation frame.
 */
function VirtualListOf<T>({ items, rowHeight, getKey, renderRow, label }: VirtualListProps<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(800);
  const frame = useRef<number | null>(null);

  useEffect(() => {
    const element = viewport.current;
    if (element === null) return;
    setHeight(element.clientHeight);
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );

  const onScroll = () => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      setScrollTop(viewport.current?.scrollTop ?? 0);
    });
  };

  const { start, end } = visibleRange(scrollTop, height, rowHeight, items.length);
  const rows: ReactNode[] = [];
  for (let index = start; index < end; index += 1) {
    const item = items.at(index)!;
    rows.push(
      <li
        key={getKey(item)}
        aria-setsize={items.length}
        aria-posinset={index + 1}
        className="virtual-row"
        style={{ top: index * rowHeight, height: rowHeight }}
      >
        {renderRow(item, index)}
      </li>,
    );
  }
  return (
    <div ref={viewport} className="virtual-viewport" onScroll={onScroll} data-rows={items.length}>
      <ul aria-label={label} className="virtual-list" style={{ height: items.length * rowHeight }}>
        {rows}
      </ul>
    </div>
  );
}

/** Memoized: a parent re-rendering with the same items and callbacks does not redraw the rows. */
export const VirtualList = memo(VirtualListOf) as typeof VirtualListOf;
