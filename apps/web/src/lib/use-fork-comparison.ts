"use client";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { useApi } from "./api-context.tsx";
import { errorMessage } from "./errors.ts";
import { forksOf } from "./forks-of.ts";
import { queryKeys } from "./query/keys.ts";
import { reads } from "./query/reads.ts";
import { useShells } from "./shells-store.tsx";
import type { ForkComparison, ThreadShell } from "./types.ts";

/**
 * While a fork runs, its files change with no event saying so (the worktree is the agent's):
 * re-read this often. Each read diffs every worktree, so not faster.
 */
const LIVE_REFRESH_MS = 3_000;

export type ForkComparisonState = {
  /** The thread's isolated forks that are not archived, oldest first. */
  forks: ThreadShell[];
  comparison: ForkComparison | null;
  error: string | null;
  refresh(): void;
};

/**
 * B9: the open thread's isolated forks side by side (`thread.compare`, one query per set of
 * forks): re-read every few seconds while one of them runs, once otherwise, and whenever the set
 * of forks changes (the previous answer stays on screen until the new one lands).
 */
export function useForkComparison(threadId: string): ForkComparisonState {
  const client = useApi();
  const queryClient = useQueryClient();
  const { shells } = useShells();
  const forks = useMemo(
    () =>
      forksOf(shells, threadId).filter(
        (fork) => fork.worktreePath !== null && fork.archivedAt === null,
      ),
    [shells, threadId],
  );
  const ids = forks.map((fork) => fork.id).join(",");
  const forkIds = useMemo(() => (ids === "" ? [] : ids.split(",")), [ids]);
  const live = forks.some((fork) => fork.status === "running" || fork.status === "waiting");
  const query = useQuery({
    ...reads.forkComparison(client, forkIds),
    enabled: forkIds.length > 0,
    staleTime: 0,
    refetchInterval: live ? LIVE_REFRESH_MS : false,
    placeholderData: keepPreviousData,
  });

  const refresh = useCallback(() => {
    if (forkIds.length === 0) return;
    void queryClient.invalidateQueries({ queryKey: queryKeys.forkComparison(forkIds) });
  }, [queryClient, forkIds]);
  // A fork that just settled (its row's status came by the event stream): read its final files.
  const wasLive = useRef(live);
  useEffect(() => {
    if (wasLive.current && !live) refresh();
    wasLive.current = live;
  }, [live, refresh]);

  return {
    forks,
    comparison: forkIds.length === 0 ? null : (query.data ?? null),
    error: query.error === null ? null : errorMessage(query.error),
    refresh,
  };
}
