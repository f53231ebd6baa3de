import type { ThreadDetail } from "./types.ts";

/** Deep equality of JSON values (what the API sends): no dates, maps or cycles to care about. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((value, i) => sameJson(value, b[i]));
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
}

/**
 * `next` with every entry equal to the previous list's entry of the same id replaced by that
 * previous object, and the previous list itself when nothing changed: a re-read then keeps the
 * identity of what it did not change, and memoized rows skip their render.
 */
export function shareList<T extends { id: string }>(
  prev: readonly T[],
  next: T[],
  byId: ReadonlyMap<string, T> = new Map(prev.map((entry) => [entry.id, entry])),
): T[] {
  let same = prev.length === next.length;
  const shared = next.map((entry, i) => {
    const old = byId.get(entry.id);
    const kept = old !== undefined && sameJson(old, entry) ? old : entry;
    if (kept !== prev[i]) same = false;
    return kept;
  });
  return same ? (prev as T[]) : shared;
}

/**
 * A re-read (or a snapshot, against `prev` null) that reuses the shown detail's unchanged parts
 * (see `shareList`). A thread's own items appear in `turnItems` and `visibleTurnItems`; both
 * lists then hold the same objects, so a delta replaces one object shown once.
 */
export function shareDetail(prev: ThreadDetail | null, next: ThreadDetail): ThreadDetail {
  const turnItems = prev === null ? next.turnItems : shareList(prev.turnItems, next.turnItems);
  const visible = next.visibleTurnItems;
  let visibleTurnItems = visible;
  if (visible !== null) {
    const candidates = new Map((prev?.visibleTurnItems ?? []).map((item) => [item.id, item]));
    for (const item of turnItems) candidates.set(item.id, item);
    visibleTurnItems = shareList(prev?.visibleTurnItems ?? [], visible, candidates);
  }
  if (prev === null) return { ...next, visibleTurnItems };
  return {
    ...next,
    thread: sameJson(prev.thread, next.thread) ? prev.thread : next.thread,
    runs: shareList(prev.runs, next.runs),
    attempts: shareList(prev.attempts, next.attempts),
    turnItems,
    visibleTurnItems,
    transfers: shareList(prev.transfers, next.transfers),
    checkpoints: shareList(prev.checkpoints, next.checkpoints),
    pendingRequests: shareList(prev.pendingRequests, next.pendingRequests),
  };
}
