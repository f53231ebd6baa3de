/**
 * Run numbers as a person counts them: a fork's own runs continue after the runs it inherited
 * (a fork at run 2 starts with run 3), through forks of forks. The API numbers each thread's runs
 * from 1; the offset is the sum of the fork points up the lineage.
 */
export type InheritanceLink = {
  sourceThreadId: string;
  sourceRunOrdinal: number;
  /** Recorded by the domain on every newer fork: the whole offset, no walk needed. */
  runOffset?: number;
} | null;

/** Lineage deeper than this is cut (a cycle in bad data must not hang the page). */
const MAX_DEPTH = 64;

export function runOffset(
  threadId: string,
  inheritanceOf: (threadId: string) => InheritanceLink | undefined,
): number {
  let offset = 0;
  let at = threadId;
  for (let depth = 0; depth < MAX_DEPTH; depth += 1) {
    const link = inheritanceOf(at);
    if (!link) return offset;
    if (link.runOffset !== undefined) return offset + link.runOffset;
    offset += link.sourceRunOrdinal;
    at = link.sourceThreadId;
  }
  return offset;
}

export function displayRunNumber(
  threadId: string,
  ordinal: number,
  inheritanceOf: (threadId: string) => InheritanceLink | undefined,
): number {
  return runOffset(threadId, inheritanceOf) + ordinal;
}
