/**
 * E3: the run number a person reads. Compaction, imported and system runs are runs (ordinals,
 * graph) but not turns, so they take no number and the next turn follows on from the last one:
 * run 1, a compaction, run 2. A fork's own turns continue after the turns it inherited
 * (`runOffset`). A run's number depends only on the runs before it, so it never changes later.
 *
 * Pure and free of zod: the web app numbers inherited runs with the same functions.
 */

/** Consecutive run ordinals `from..to` (inclusive) that are not turns of the conversation. */
export type AsideRange = { from: number; to: number };

/** `ranges` with one more aside ordinal appended (ordinals arrive ascending; contiguous merge). */
export function withAsideOrdinal(ranges: readonly AsideRange[], ordinal: number): AsideRange[] {
  const last = ranges.at(-1);
  if (last !== undefined && ordinal <= last.to) return [...ranges];
  if (last !== undefined && ordinal === last.to + 1) {
    return [...ranges.slice(0, -1), { from: last.from, to: ordinal }];
  }
  return [...ranges, { from: ordinal, to: ordinal }];
}

/** Whether run `ordinal` is one of the aside runs. */
export function isAsideOrdinal(ordinal: number, ranges: readonly AsideRange[] = []): boolean {
  return ranges.some((r) => ordinal >= r.from && ordinal <= r.to);
}

/**
 * Turns of the thread's own runs `1..ordinal`: the number of run `ordinal` when it is a turn,
 * else the number of the last turn before it (what "after run N" means at an aside run).
 */
export function turnsThrough(ordinal: number, ranges: readonly AsideRange[] = []): number {
  let aside = 0;
  for (const r of ranges) {
    if (r.from > ordinal) break;
    aside += Math.min(r.to, ordinal) - r.from + 1;
  }
  return Math.max(ordinal - aside, 0);
}

/** The number shown for run `ordinal` of a thread: null for a run that is not a turn. */
export function conversationRunNumber(
  ordinal: number,
  ranges: readonly AsideRange[] | undefined,
  runOffset: number,
): number | null {
  if (isAsideOrdinal(ordinal, ranges)) return null;
  return runOffset + turnsThrough(ordinal, ranges);
}
