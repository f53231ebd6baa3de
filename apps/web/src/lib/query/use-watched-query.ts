"use client";
import { type QueryKey, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { errorMessage } from "../errors.ts";
import { useWatch, type WatchState, type WatchSubscribe } from "../use-watch.ts";
import { invalidateOnEvents } from "./invalidate-on-events.ts";
import { newestWins } from "./newest-wins.ts";
import { retryDelay, retryLive } from "./query-client.ts";

export type WatchedQuery<T> = {
  data: T | null;
  watch: WatchState;
  error: string | null;
  /** Ask for a re-read (folded with the watch's), e.g. when another live source moved. */
  refresh(): void;
};

/**
 * A projection kept live by its watch, with no polling: the watch's snapshot goes into the query
 * cache at once; each burst of later events invalidates the query (the events say *that* it
 * changed, the read says *how*). The cache keeps the newest by sequence, so results never go back.
 *
 * The query reads only once a snapshot has seeded it: the watch's first message is the answer,
 * and a second read beside it would double the work of every page load.
 */
export function useWatchedQuery<T extends { snapshotSequence: number }>(options: {
  /** Identity of the watch and of the cached answer; `null` pauses both. */
  queryKey: QueryKey | null;
  subscribe: WatchSubscribe<T>;
  read: () => Promise<T>;
  delayMs: number;
}): WatchedQuery<T> {
  const { queryKey, delayMs } = options;
  const queryClient = useQueryClient();
  const hash = queryKey === null ? null : JSON.stringify(queryKey);
  const [seeded, setSeeded] = useState<string | null>(null);
  const query = useQuery<T>({
    queryKey: queryKey ?? ["paused"],
    queryFn: options.read,
    enabled: hash !== null && seeded === hash,
    staleTime: Number.POSITIVE_INFINITY,
    structuralSharing: newestWins,
    retry: retryLive,
    retryDelay,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: one invalidator per key (`hash`)
  const invalidator = useMemo(
    () => (queryKey === null ? null : invalidateOnEvents(queryClient, queryKey, delayMs)),
    [queryClient, hash, delayMs],
  );
  useEffect(() => () => invalidator?.dispose(), [invalidator]);

  const watch = useWatch<T>({
    key: hash,
    subscribe: options.subscribe,
    onSnapshot: (data) => {
      if (queryKey === null) return;
      queryClient.setQueryData<T>(queryKey, (previous) => newestWins(previous, data) as T);
      setSeeded(hash);
    },
    onEvents: () => invalidator?.request(),
  });
  const refresh = useCallback(() => invalidator?.request(), [invalidator]);
  return {
    data: hash === null ? null : (query.data ?? null),
    watch,
    error: query.error === null ? null : errorMessage(query.error),
    refresh,
  };
}
