"use client";
import { useCallback, useContext, useMemo } from "react";
import { type AsideRunsOf, displayRunNumber, type InheritanceLink } from "./run-numbering.ts";
import { useShells } from "./shells-store.tsx";
import { ThreadContext } from "./use-thread-context.tsx";

export type Lineage = {
  /**
   * `(threadId, ordinal) → the run number shown` (continuing across forks, skipping compaction
   * and imported runs; at such a run, the last turn's number).
   */
  numberOf(threadId: string, ordinal: number): number;
  inheritanceOf(threadId: string): InheritanceLink | undefined;
  /** A thread's runs that take no number (compaction, imported), from its shell. */
  asideRunsOf: AsideRunsOf;
};

/**
 * Fork links from the live thread list, and the open thread's own detail (which may be newer
 * than its sidebar row).
 */
export function useLineage(): Lineage {
  const { shells } = useShells();
  const open = useContext(ThreadContext);
  const openThread = open?.detail?.thread ?? null;
  const threadOf = useCallback(
    (id: string) => (openThread?.id === id ? openThread : shells.get(id)),
    [shells, openThread],
  );
  const inheritanceOf = useCallback(
    (id: string): InheritanceLink | undefined => threadOf(id)?.inheritance ?? undefined,
    [threadOf],
  );
  const asideRunsOf = useCallback<AsideRunsOf>((id) => threadOf(id)?.asideRuns, [threadOf]);
  return useMemo(
    () => ({
      inheritanceOf,
      asideRunsOf,
      numberOf: (threadId: string, ordinal: number) =>
        displayRunNumber(threadId, ordinal, inheritanceOf, asideRunsOf),
    }),
    [inheritanceOf, asideRunsOf],
  );
}
