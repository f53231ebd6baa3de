import type { Run } from "../../entities/run.ts";
import type { TurnItemEntry, ThreadState } from "../thread-state.ts";

/**
 * P6 for a run that waited in the queue: its user message (and anything bound to it while it
 * waited, e.g. a consumed handoff) was added when it was queued, so the run ahead of it kept adding
 * items after it. When the queued run leaves the queue (starts, is cancelled, fails before its
 * start) its items move behind everything added meanwhile, keeping their own order, so each run's
 * items stay contiguous — one run header each, live and after a reload.
 */
export function moveQueuedRunItemsToTail(s: ThreadState, run: Run): void {
  if (run.status !== "queued") return;
  const userItemId = s.itemBySubject.get(run.userMessageId);
  const first = userItemId ? s.turnItems.get(userItemId) : undefined;
  if (!first || first.sortKey === s.nextItemSortKey - 1) return;
  const own: TurnItemEntry[] = [];
  let overtaken = false;
  for (const entry of s.turnItems.values()) {
    if (entry.sortKey < first.sortKey) continue;
    if (entry.item.runId === run.id) own.push(entry);
    else overtaken = true;
  }
  if (!overtaken) return;
  own.sort((a, b) => a.sortKey - b.sortKey);
  for (const { item } of own) {
    const sortKey = s.nextItemSortKey;
    s.nextItemSortKey += 1;
    // Re-inserted, so the map keeps iterating in sort-key order.
    s.turnItems.delete(item.id);
    s.turnItems.set(item.id, { item, sortKey });
    s.changed.set(item.id, "turn_items");
    s.maxItemSortKeyByRun.set(run.id, sortKey);
  }
}
