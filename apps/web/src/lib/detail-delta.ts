import { type ItemDelta, takesDeltas, withItemDelta } from "@skein/domain/item-delta";
import type { StoredEvent, ThreadDetail, TurnItem } from "./types.ts";

type NodeDelta = ItemDelta & { nodeId: string };

/** An `ItemDeltaAppended` event's data, checked: the watch hands it over as `unknown`. */
function nodeDeltaOf(event: StoredEvent): NodeDelta | null {
  if (event.type !== "ItemDeltaAppended") return null;
  const data = event.data as Partial<Record<keyof NodeDelta, unknown>> | null | undefined;
  if (
    typeof data?.nodeId !== "string" ||
    typeof data.delta !== "string" ||
    typeof data.at !== "string" ||
    (data.rawEventId !== undefined && typeof data.rawEventId !== "string")
  ) {
    return null;
  }
  return {
    nodeId: data.nodeId,
    delta: data.delta,
    at: data.at,
    ...(data.rawEventId === undefined ? {} : { rawEventId: data.rawEventId }),
  };
}

/**
 * The one shown item a node's deltas go to, or -1 when that is not certain: no item (a subagent
 * child's node is hidden, or the item is not in this window yet) or more than one.
 */
function subjectIndex(items: readonly TurnItem[], nodeId: string): number {
  let found = -1;
  for (let i = items.length - 1; i >= 0; i -= 1) {
    if (items[i]!.nodeId !== nodeId) continue;
    if (found >= 0) return -1;
    found = i;
  }
  return found;
}

function replaced<T>(list: readonly T[], index: number, value: T): T[] {
  const next = list.slice();
  next[index] = value;
  return next;
}

/**
 * The detail after one streamed delta, computed in the browser exactly as the store's projection
 * computes it (`withItemDelta`): only the streaming item and the lists holding it are new
 * objects, so only that item re-renders. `null` when the event is anything else or its item is
 * not certain here; the caller then re-reads the window.
 */
export function applyDelta(detail: ThreadDetail, event: StoredEvent): ThreadDetail | null {
  const delta = nodeDeltaOf(event);
  if (delta === null) return null;
  const at = subjectIndex(detail.turnItems, delta.nodeId);
  const item = detail.turnItems[at];
  // Other item types change only their raw frame range; rare enough to re-read.
  if (item === undefined || !takesDeltas(item.type)) return null;
  const next = withItemDelta(item, delta);
  const visible = detail.visibleTurnItems;
  const shownAt = visible === null ? -1 : visible.findLastIndex((i) => i.id === item.id);
  return {
    ...detail,
    turnItems: replaced(detail.turnItems, at, next),
    visibleTurnItems: visible === null || shownAt < 0 ? visible : replaced(visible, shownAt, next),
  };
}
