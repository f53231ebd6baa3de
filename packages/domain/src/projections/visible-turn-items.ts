import type { ForkInheritance } from "../entities/fork-inheritance.ts";
import type { TurnItem } from "../entities/turn-item.ts";
import type { ThreadId } from "../ids.ts";
import type { ProjectionRow } from "./projection-write.ts";

type RowPosition = Pick<ProjectionRow, "sortKey" | "runOrdinal">;

/**
 * Whether a source `turn_items` row is part of a fork's inherited view (P7). The store can push
 * the first two conditions into SQL (`sort_key <= ? AND (run_ordinal IS NULL OR run_ordinal <= ?)`).
 */
export function isInheritedRow(row: RowPosition, inheritance: ForkInheritance): boolean {
  if (row.sortKey > inheritance.cutoffSortKey) return false;
  if (row.runOrdinal === null) return true;
  return (
    row.runOrdinal <= inheritance.sourceRunOrdinal &&
    !inheritance.excludedRunOrdinals.includes(row.runOrdinal)
  );
}

function bySortKey(a: RowPosition & { id: string }, b: RowPosition & { id: string }): number {
  return a.sortKey - b.sortKey || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export type InheritanceSource = {
  inheritance: ForkInheritance | null;
  /** The thread's own `turn_items` rows (pre-filtered by the store or not). */
  rows: readonly ProjectionRow<TurnItem>[];
};

/**
 * The items a fork inherits, read by reference: the source's own rows up to the fork's cutoff,
 * preceded by whatever the source itself inherited (forks of forks recurse). Nothing is copied
 * into the fork's storage.
 */
export function collectInheritedTurnItems(
  inheritance: ForkInheritance,
  load: (threadId: ThreadId) => InheritanceSource | undefined,
  depthLimit = 64,
): TurnItem[] {
  const source = load(inheritance.sourceThreadId);
  if (!source) return [];
  const upstream =
    source.inheritance && depthLimit > 0
      ? collectInheritedTurnItems(source.inheritance, load, depthLimit - 1)
      : [];
  const own = source.rows.filter((row) => isInheritedRow(row, inheritance));
  own.sort(bySortKey);
  for (const row of own) upstream.push(row.data);
  return upstream;
}

/**
 * P7: inherited source items, then the fork marker, then the fork's own items. `ownItems` are in
 * backend order; the marker is taken out of them if it is there.
 */
export function buildVisibleTurnItems(
  ownItems: readonly TurnItem[],
  inheritedSourceItems: readonly TurnItem[],
  forkMarker: TurnItem | null,
): TurnItem[] {
  const visible: TurnItem[] = [...inheritedSourceItems];
  if (forkMarker) visible.push(forkMarker);
  for (const item of ownItems) if (item.id !== forkMarker?.id) visible.push(item);
  return visible;
}
