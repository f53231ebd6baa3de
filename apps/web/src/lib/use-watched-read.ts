"use client";
import { useEffect, useMemo, useRef, useState } from "react";
import { errorMessage } from "./errors.ts";
import { RefreshScheduler } from "./refresh-scheduler.ts";
import { useWatch, type WatchState, type WatchSubscribe } from "./use-watch.ts";

export type WatchedRead<T> = {
  data: T | null;
  watch: WatchState;
  error: string | null;
  /** Ask for a re-read (coalesced with the watch's), e.g. when another live source moved. */
  refresh(): void;
};

/**
 * A projection kept live by its watch, with no polling: the watch's snapshot is shown at once;
 * each batch of later events asks for one coalesced re-read (the events say *that* it changed,
 * the read says *how*). A read older than what is shown is dropped, so results never go back.
 */
export function useWatchedRead<T extends { snapshotSequence: number }>(options: {
  /** Identity of the watch; a new key starts over. `null` pauses it. */
  key: string | null;
  subscribe: WatchSubscribe<T>;
  read: () => Promise<T>;
  delayMs: number;
}): WatchedRead<T> {
  const { key } = options;
  const [entry, setEntry] = useState<{ key: string | null; data: T } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(options);
  latest.current = options;
  const keep = (data: T) =>
    setEntry((prev) =>
      prev?.key === key && prev.data.snapshotSequence > data.snapshotSequence
        ? prev
        : { key, data },
    );
  const keepRef = useRef(keep);
  keepRef.current = keep;

  // biome-ignore lint/correctness/useExhaustiveDependencies: one scheduler per watch identity
  const scheduler = useMemo(
    () =>
      new RefreshScheduler(async () => {
        try {
          keepRef.current(await latest.current.read());
          setError(null);
        } catch (caught) {
          setError(errorMessage(caught));
          throw caught;
        }
      }, options.delayMs),
    [key],
  );
  useEffect(() => () => scheduler.dispose(), [scheduler]);

  const watch = useWatch<T>({
    key,
    subscribe: options.subscribe,
    onSnapshot: (data) => keepRef.current(data),
    onEvents: () => scheduler.request(),
  });
  return {
    data: entry?.key === key ? entry.data : null,
    watch,
    error,
    refresh: () => scheduler.request(),
  };
}
