import type { Checkpoint } from "../entities/checkpoint.ts";
import type { PlanArtifact } from "../entities/plan-artifact.ts";
import type { ContextTransfer } from "../entities/context-transfer.ts";
import type { Run } from "../entities/run.ts";
import type { RunAttempt } from "../entities/run-attempt.ts";
import type { RuntimeRequest } from "../entities/runtime-request.ts";
import type { TurnItem } from "../entities/turn-item.ts";
import type { ProjectionRow } from "./projection-write.ts";
import type { ThreadShell } from "./thread-shell.ts";
import { runOffsetOf } from "../thread/fork-title.ts";
import { countsForConversation } from "./conversation-count.ts";
import { type AsideRange, conversationRunNumber, withAsideOrdinal } from "./run-number.ts";
import { buildVisibleTurnItems } from "./visible-turn-items.ts";

export type ThreadDetailRows = {
  thread: ProjectionRow<ThreadShell>;
  runs: readonly ProjectionRow<Run>[];
  turnItems: readonly ProjectionRow<TurnItem>[];
  transfers: readonly ProjectionRow<ContextTransfer>[];
  checkpoints: readonly ProjectionRow<Checkpoint>[];
  requests: readonly ProjectionRow<RuntimeRequest>[];
  /** E4: the runs' attempts (a retry or recovery adds one); absent rows mean none. */
  attempts?: readonly ProjectionRow<RunAttempt>[];
  /** E17: the runs' plans (todo lists, proposed plans, questions); absent rows mean none. */
  plans?: readonly ProjectionRow<PlanArtifact>[];
  /** For forks: `collectInheritedTurnItems(...)` of the thread's inheritance. */
  inheritedTurnItems?: readonly TurnItem[];
};

/**
 * A run as the detail shows it: with the number a person reads (E3), null for a compaction,
 * imported or system run, which is not a turn of the conversation.
 */
export type DetailRun = Run & { conversationNumber: number | null };

/** P2: what the thread detail view renders; every list is in backend order. */
export type ThreadDetail = {
  thread: ThreadShell;
  runs: DetailRun[];
  /** E4/B2: every attempt of the thread's runs, by run then attempt ordinal. */
  attempts: RunAttempt[];
  /** The thread's own items (P6), including items of rolled-back runs. */
  turnItems: TurnItem[];
  /**
   * P7 for forks; for every thread, items of rolled-back runs are left out. `null` when it would
   * equal `turnItems` (a thread that is not a fork, nothing rolled back): sending the same list
   * twice doubled the detail payload. Read it through `visibleItemsOf`.
   */
  visibleTurnItems: TurnItem[] | null;
  transfers: ContextTransfer[];
  checkpoints: Checkpoint[];
  /** P2/E17: every plan of the thread's runs (each todo-list update supersedes the last). */
  plans: PlanArtifact[];
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

/**
 * Each run's items as one block, blocks in the order the runs first appear. Only a run that never
 * started interleaves (its message was queued behind a run that kept adding items; once it starts,
 * `RunStarted` moves its items to the tail), so this moves just such waiting or cancelled messages
 * behind the running run instead of splitting that run in two.
 */
function contiguousRuns(items: TurnItem[]): TurnItem[] {
  const blocks: TurnItem[][] = [];
  const blockOfRun = new Map<string, TurnItem[]>();
  let moved = false;
  let previous: TurnItem[] | undefined;
  for (const item of items) {
    let block = item.runId === null ? undefined : blockOfRun.get(item.runId);
    if (block !== undefined && block !== previous) moved = true;
    if (block === undefined) {
      block =
        item.runId === null && previous !== undefined && previous[0]?.runId === null
          ? previous
          : [];
      if (block !== previous) blocks.push(block);
      if (item.runId !== null) blockOfRun.set(item.runId, block);
    }
    block.push(item);
    previous = block;
  }
  return moved ? blocks.flat() : items;
}

export function assembleThreadDetail(rows: ThreadDetailRows): ThreadDetail {
  const thread = rows.thread.data;
  const offset = runOffsetOf(thread.inheritance);
  const ordered = sortedData(rows.runs);
  // A shell row written before `asideRuns` existed lacks it until the thread's next event; the
  // window's own runs then stand in (exact when the window starts at run 1).
  const aside =
    thread.asideRuns ??
    ordered
      .filter((run) => !countsForConversation(run))
      .reduce<AsideRange[]>((ranges, run) => withAsideOrdinal(ranges, run.ordinal), []);
  const runs = ordered.map(
    (run): DetailRun => ({
      ...run,
      // From the shell's aside ranges, not only the window's runs: a window may start mid-thread.
      conversationNumber: countsForConversation(run)
        ? conversationRunNumber(run.ordinal, aside, offset)
        : null,
    }),
  );
  const runOrdinals = new Map(runs.map((run) => [run.id as string, run.ordinal]));
  const turnItems = contiguousRuns(sortedData(rows.turnItems));
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
    : shown === turnItems
      ? null
      : shown;
  return {
    thread,
    runs,
    attempts: sortedData(rows.attempts ?? []).sort(
      (a, b) =>
        (runOrdinals.get(a.runId) ?? 0) - (runOrdinals.get(b.runId) ?? 0) ||
        a.attemptOrdinal - b.attemptOrdinal,
    ),
    turnItems,
    visibleTurnItems,
    transfers: sortedData(rows.transfers),
    checkpoints: sortedData(rows.checkpoints),
    plans: sortedData(rows.plans ?? []),
    pendingRequests: sortedData(rows.requests).filter((r) => r.status === "pending"),
  };
}

/** What the conversation shows (P7): `visibleTurnItems`, or `turnItems` when they are the same. */
export function visibleItemsOf<T>(detail: {
  turnItems: readonly T[];
  visibleTurnItems: readonly T[] | null;
}): readonly T[] {
  return detail.visibleTurnItems ?? detail.turnItems;
}
