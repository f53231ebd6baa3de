"use client";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useApi } from "./api-context.tsx";
import { errorMessage } from "./errors.ts";
import { forksOf } from "./forks-of.ts";
import { useShells } from "./shells-store.tsx";
import type { ForkComparison, ThreadShell } from "./types.ts";

/** While a fork runs, its files change: re-read this often (each read diffs every worktree). */
const LIVE_REFRESH_MS = 3_000;

export type ForkComparisonState = {
  /** The thread's isolated forks that are not archived, oldest first. */
  forks: ThreadShell[];
  comparison: ForkComparison | null;
  error: string | null;
  refresh(): void;
};

/**
 * B9: the open thread's isolated forks side by side (`thread.compare`): re-read every few seconds
 * while one of them runs, once otherwise, and whenever the set of forks changes.
 */
export function useForkComparison(threadId: string): ForkComparisonState {
  const client = useApi();
  const { shells } = useShells();
  const forks = useMemo(
    () =>
      forksOf(shells, threadId).filter(
        (fork) => fork.worktreePath !== null && fork.archivedAt === null,
      ),
    [shells, threadId],
  );
  const ids = forks.map((fork) => fork.id).join(",");
  const live = forks.some((fork) => fork.status === "running" || fork.status === "waiting");
  const [comparison, setComparison] = useState<ForkComparison | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `tick` asks for a fresh read
  useEffect(() => {
    if (ids === "") {
      setComparison(null);
      return;
    }
    let current = true;
    client.thread.compare
      .query({ threadIds: ids.split(",") as never })
      .then((next) => {
        if (!current) return;
        setComparison(next);
        setError(null);
      })
      .catch((failure: unknown) => current && setError(errorMessage(failure)));
    return () => {
      current = false;
    };
  }, [client, ids, tick]);

  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => setTick((n) => n + 1), LIVE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [live]);
  // A fork that just settled: read its final files once more.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-read when `live` flips
  useEffect(() => setTick((n) => n + 1), [live]);

  return { forks, comparison, error, refresh: useCallback(() => setTick((n) => n + 1), []) };
}
