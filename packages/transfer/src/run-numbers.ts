import { type AsideRange, conversationRunNumber, turnsThrough } from "@skein/domain/run-number";
import type { ThreadId } from "./inputs.ts";
import { formatRunRanges, type OrdinalRange, toRanges } from "./ordinal-ranges.ts";

/**
 * B16/E3, one run numbering: how a handoff text and `skein_history` number a thread's runs, as the
 * UI does. A fork's runs count on from the turns it inherited (`runOffsets`); compaction, imported
 * and system runs (`asideRuns`, the thread's own record of them) are runs but not turns, so they
 * take no number and the turns after them are not pushed on. Absent threads count from 1.
 */
export type RunNumbering = {
  readonly runOffsets?: ReadonlyMap<ThreadId, number>;
  readonly asideRuns?: ReadonlyMap<ThreadId, readonly AsideRange[]>;
  /** Compaction runs (`compactRunKey`), so one is called a compaction where it has no number. */
  readonly compactRuns?: ReadonlySet<string>;
};

export function compactRunKey(threadId: ThreadId, ordinal: number): string {
  return `${threadId}#${ordinal}`;
}

/** The compaction runs among `runs`, for `RunNumbering.compactRuns`. */
export function compactRunsOf(
  runs: readonly { threadId: ThreadId; ordinal: number; compact?: boolean | undefined }[],
): ReadonlySet<string> {
  return new Set(runs.filter((r) => r.compact).map((r) => compactRunKey(r.threadId, r.ordinal)));
}

/** The number a person reads for a thread's run `ordinal`; null for a run that is not a turn. */
export function runNumberOf(n: RunNumbering, threadId: ThreadId, ordinal: number): number | null {
  return conversationRunNumber(
    ordinal,
    n.asideRuns?.get(threadId),
    n.runOffsets?.get(threadId) ?? 0,
  );
}

/**
 * The words for a run: `run 3`, or for one that is not a turn where it stands (`compaction
 * after run 2`, `uncounted run before run 1`).
 */
export function runWords(
  n: RunNumbering,
  run: { readonly threadId: ThreadId; readonly ordinal: number; readonly compacted?: boolean },
): string {
  const number = runNumberOf(n, run.threadId, run.ordinal);
  if (number !== null) return `run ${number}`;
  const compaction = run.compacted || n.compactRuns?.has(compactRunKey(run.threadId, run.ordinal));
  const what = compaction ? "compaction" : "uncounted run";
  const before =
    (n.runOffsets?.get(run.threadId) ?? 0) +
    turnsThrough(run.ordinal, n.asideRuns?.get(run.threadId));
  return before > 0 ? `${what} after run ${before}` : `${what} before run 1`;
}

/** A thread's ordinal ranges as the turn numbers they hold (runs that are not turns left out). */
export function numberedRanges(
  n: RunNumbering,
  threadId: ThreadId,
  ranges: readonly OrdinalRange[],
): OrdinalRange[] {
  const numbers: number[] = [];
  for (const r of ranges) {
    for (let ordinal = r.from; ordinal <= r.to; ordinal += 1) {
      const number = runNumberOf(n, threadId, ordinal);
      if (number !== null) numbers.push(number);
    }
  }
  return toRanges(numbers);
}

/** "runs 1–3" as a person counts them; "no turns" where the ranges hold none (a compaction). */
export function formatNumberedRuns(
  n: RunNumbering,
  threadId: ThreadId,
  ranges: readonly OrdinalRange[],
): string {
  const numbered = numberedRanges(n, threadId, ranges);
  return numbered.length > 0 ? formatRunRanges(numbered) : "no turns";
}
