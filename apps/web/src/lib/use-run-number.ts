"use client";
import { useCallback, useContext, useMemo } from "react";
import { displayRunNumber, type InheritanceLink } from "./run-numbering.ts";
import { useShells } from "./shells-store.tsx";
import { ThreadContext } from "./use-thread-context.tsx";

export type Lineage = {
  /** `(threadId, ordinal) → the run number shown` (continuing across forks). */
  numberOf(threadId: string, ordinal: number): number;
  inheritanceOf(threadId: string): InheritanceLink | undefined;
};

/**
 * Fork links from the live thread list, and the open thread's own detail (which may be newer
 * than its sidebar row).
 */
export function useLineage(): Lineage {
  const { shells } = useShells();
  const open = useContext(ThreadContext);
  const openThread = open?.detail?.thread ?? null;
  const inheritanceOf = useCallback(
    (id: string): InheritanceLink | undefined => {
      const thread = openThread?.id === id ? openThread : shells.get(id);
      return thread?.inheritance ?? undefined;
    },
    [shells, openThread],
  );
  return useMemo(
    () => ({
      inheritanceOf,
      numberOf: (threadId: string, ordinal: number) =>
        displayRunNumber(threadId, ordinal, inheritanceOf),
    }),
    [inheritanceOf],
  );
}

export function useRunNumber(): Lineage["numberOf"] {
  return useLineage().numberOf;
}
