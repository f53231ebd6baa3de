import { type AsideRange, turnsThrough } from "@skein/domain/run-number";

/**
 * Run numbers as a person counts them (E3): a fork's own runs continue after the runs it
 * inherited (a fork at run 2 starts with run 3), through forks of forks, and compaction or
 * imported runs take no number (run 1, a compaction, run 2). The API numbers each thread's runs
 * from 1 by ordinal; the offset is the turns up to the fork points up the lineage.
 */
export type InheritanceLink = {
  sourceThreadId: string;
  sourceRunOrdinal: number;
  /** Recorded by the domain on every newer fork: the whole offset, no walk needed. */
  runOffset?: number;
} | null;

/** Lineage deeper than this is cut (a cycle in bad data must not hang the page). */
const MAX_DEPTH = 64;

/** A thread's runs that take no number (its shell's `asideRuns`); none when unknown. */
export type AsideRunsOf = (threadId: string) => readonly AsideRange[] | undefined;

const noAsideRuns: AsideRunsOf = () => undefined;

export function runOffset(
  threadId: string,
  inheritanceOf: (threadId: string) => InheritanceLink | undefined,
  asideRunsOf: AsideRunsOf = noAsideRuns,
): number {
  let offset = 0;
  let at = threadId;
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    const link = inheritanceOf(at);
    if (!link) return offset;
    if (link.runOffset !== undefined) return offset + link.runOffset;
    offset += turnsThrough(link.sourceRunOrdinal, asideRunsOf(link.sourceThreadId));
    at = link.sourceThreadId;
  }
  return offset;
}

/**
 * The number of run `ordinal` of `threadId`; at a run that takes none (a compaction), the number
 * of the last turn before it, which is what "after run N" or "at run N" means there.
 */
export function displayRunNumber(
  threadId: string,
  ordinal: number,
  inheritanceOf: (threadId: string) => InheritanceLink | undefined,
  asideRunsOf: AsideRunsOf = noAsideRuns,
): number {
  return (
    runOffset(threadId, inheritanceOf, asideRunsOf) + turnsThrough(ordinal, asideRunsOf(threadId))
  );
}
