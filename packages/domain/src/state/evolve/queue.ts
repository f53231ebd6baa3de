import type { EventData } from "../../events.ts";
import type { RunId } from "../../ids.ts";
import { putMessage, putRun, touchShell } from "../mutations.ts";
import type { ThreadState, TurnItemEntry } from "../thread-state.ts";

/** B20: the waiting run's message and its user_message item read the new text. */
export function onQueuedMessageEdited(s: ThreadState, d: EventData<"QueuedMessageEdited">): void {
  const run = s.runs.get(d.runId);
  const message = run ? s.messages.get(run.userMessageId) : undefined;
  if (!run || !message) return;
  putMessage(s, { ...message, text: d.text, updatedAt: d.at });
  const itemId = s.itemBySubject.get(message.id);
  const entry = itemId ? s.turnItems.get(itemId) : undefined;
  if (entry && entry.item.type === "user_message") {
    s.turnItems.set(entry.item.id, {
      item: { ...entry.item, text: d.text, updatedAt: d.at },
      sortKey: entry.sortKey,
    });
    s.changed.set(entry.item.id, "turn_items");
  }
  touchShell(s, d.at);
}

/**
 * B20: the waiting runs start in the new order. They keep the ordinal slots they held between
 * them (so `runOrder[ordinal - 1]` stays the run of that ordinal and no other run moves), and
 * their items move to the tail in the new order, so the thread shows the queue as it will run.
 */
export function onQueueReordered(s: ThreadState, d: EventData<"QueueReordered">): void {
  const moved = d.runIds.flatMap((id) => {
    const run = s.runs.get(id);
    return run ? [run] : [];
  });
  const slots = moved.map((run) => run.ordinal).sort((a, b) => a - b);
  const ordinalOf = new Map<RunId, number>();
  moved.forEach((run, i) => {
    const ordinal = slots[i] as number;
    ordinalOf.set(run.id, ordinal);
    if (run.ordinal !== ordinal) putRun(s, { ...run, ordinal });
  });
  const rest = [...s.queuedRunIds].filter((id) => !ordinalOf.has(id));
  s.queuedRunIds.clear();
  for (const id of [...rest, ...moved.map((run) => run.id)]) s.queuedRunIds.add(id);
  s.runOrder.sort((a, b) => (s.runs.get(a)?.ordinal ?? 0) - (s.runs.get(b)?.ordinal ?? 0));

  const itemsByRun = new Map<RunId, TurnItemEntry[]>();
  for (const entry of s.turnItems.values()) {
    const runId = entry.item.runId;
    if (runId === null || !ordinalOf.has(runId)) continue;
    const list = itemsByRun.get(runId) ?? [];
    list.push(entry);
    itemsByRun.set(runId, list);
  }
  for (const run of moved) {
    const runOrdinal = ordinalOf.get(run.id) as number;
    for (const { item } of itemsByRun.get(run.id) ?? []) {
      const sortKey = s.nextItemSortKey;
      s.nextItemSortKey += 1;
      // Re-inserted, so the map keeps iterating in sort-key order.
      s.turnItems.delete(item.id);
      s.turnItems.set(item.id, { item: { ...item, runOrdinal }, sortKey });
      s.changed.set(item.id, "turn_items");
      s.maxItemSortKeyByRun.set(run.id, sortKey);
    }
    const message = s.messages.get(run.userMessageId);
    if (message) putMessage(s, message);
  }
  // Rows sorted by their run's ordinal are written again with the new one.
  for (const transfer of s.transfers.values()) {
    if (transfer.targetRunId && ordinalOf.has(transfer.targetRunId)) {
      s.changed.set(transfer.id, "transfers");
    }
  }
  for (const handoff of s.handoffs.values()) {
    if (handoff.targetRunId && ordinalOf.has(handoff.targetRunId)) {
      s.changed.set(handoff.id, "handoffs");
    }
  }
  touchShell(s, d.at);
}
