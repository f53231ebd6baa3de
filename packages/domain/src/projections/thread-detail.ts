import type { Checkpoint } from "../entities/checkpoint.ts";
import type { ContextTransfer } from "../entities/context-transfer.ts";
import type { Run } from "../entities/run.ts";
import type { RuntimeRequest } from "../entities/runtime-request.ts";
import type { TurnItem } from "../entities/turn-item.ts";
import type { ProjectionRow } from "./projection-write.ts";
import type { ThreadShell } from "./thread-shell.ts";
import { buildVisibleTurnItems } from "./visible-turn-items.ts";

export type ThreadDetailRows = {
  thread: ProjectionRow<ThreadShell>;
  runs: readonly ProjectionRow<Run>[];
  turnItems: readonly ProjectionRow<TurnItem>[];
  transfers: readonly ProjectionRow<ContextTransfer>[];
  checkpoints: readonly ProjectionRow<Checkpoint>[];
  requests: readonly ProjectionRow<RuntimeRequest>[];
  /** For forks: `collectInheritedTurnItems(...)` of the thread's inheritance. */
  inheritedTurnItems?: readonly TurnItem[];
};

/** P2: what the thread detail view renders; every list is in backend order. */
export type ThreadDetail = {
  thread: ThreadShell;
  runs: Run[];
  /** The thread's own items (P6), including items of rolled-back runs. */
  turnItems: TurnItem[];
  /** P7 for forks; for every thread, items of rolled-back runs are left out. */
  visibleTurnItems: TurnItem[];
  transfers: ContextTransfer[];
  checkpoints: Checkpoint[];
  pendingRequests: RuntimeRequest[];
};

/** Rows in (sortKey, id) order; skips the sort when the store already returned them ordered. */
export function sortedData<T>(rows: readonly ProjectionRow<T>[]): T[] {
  let ordered = true;
  for (let i = 1; i < rows.length && ordered; i += 1) {
    const prev = rows[i - 1] as ProjectionRow<T>;
    const row = rows[i] as ProjectionRow<T>;
    ordered = prev.sortKey < row.sortKey || (prev.sortKey === row.sortKey && prev.id <= row.id);
  }
  const list = ordered
    ? rows
    : [...rows].sort((a, b) => a.sortKey - b.sortKey || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return list.map((row) => row.data);
}

export function assembleThreadDetail(rows: ThreadDetailRows): ThreadDetail {
  const thread = rows.thread.data;
  const runs = sortedData(rows.runs);
  const turnItems = sortedData(rows.turnItems);
  const rolledBack = new Set<number>();
  for (const run of runs) if (run.status === "rolled_back") rolledBack.add(run.ordinal);
  const shown =
    rolledBack.size === 0
      ? turnItems
      : turnItems.filter((item) => item.runOrdinal === null || !rolledBack.has(item.runOrdinal));
  const forkItemId = thread.inheritance?.forkItemId;
  const marker = forkItemId ? (turnItems.find((item) => item.id === forkItemId) ?? null) : null;
  const visibleTurnItems = thread.inheritance
    ? buildVisibleTurnItems(shown, rows.inheritedTurnItems ?? [], marker)
    : shown;
  return {
    thread,
    runs,
    turnItems,
    visibleTurnItems,
    transfers: sortedData(rows.transfers),
    checkpoints: sortedData(rows.checkpoints),
    pendingRequests: sortedData(rows.requests).filter((r) => r.status === "pending"),
  };
}
