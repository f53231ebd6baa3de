"use client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useApi } from "./api-context.tsx";
import { errorMessage } from "./errors.ts";
import { clearBackgroundFailure, notifyBackgroundFailure } from "./notify.ts";
import { RefreshScheduler } from "./refresh-scheduler.ts";
import type { ThreadDetail } from "./types.ts";
import { useWatch, type WatchState, type WatchSubscribe } from "./use-watch.ts";

/** Short enough that a streaming reply visibly grows, long enough to fold bursts of deltas. */
const DETAIL_REFRESH_MS = 120;

export type ThreadDetailState = {
  detail: ThreadDetail | null;
  watch: WatchState;
  /** The last failed re-read, if any (the watch's own errors are in `watch.error`). */
  readError: string | null;
  /** Re-read now, e.g. after a mutation whose events have not arrived yet. */
  refresh(): void;
  /**
   * B7: windows of older runs loaded so far (oldest first), before the live latest window. They
   * hold settled runs, so they are read once and not followed.
   */
  older: ThreadDetail[];
  /** Whether runs before everything shown exist. */
  hasOlder: boolean;
  /** Loads the window before the oldest one shown (no-op while one is loading). */
  loadOlder(): void;
};

/**
 * P2 for one thread, live: the `thread.watchDetail` snapshot, then — for each later event of the
 * thread's stream — a coalesced re-read of `thread.detail`. The backend orders `turnItems`; this
 * hook never merges or reorders them, it only swaps in newer projections. A re-read older than
 * what is shown (by `snapshotSequence`) is ignored; a fresh snapshot from the watch always wins
 * (it is how the server says "start over").
 */
export function useThreadDetail(threadId: string): ThreadDetailState {
  const client = useApi();
  // Tagged with its thread, so a navigation never shows the previous thread's detail.
  const [entry, setEntry] = useState<{ threadId: string; detail: ThreadDetail } | null>(null);
  const detail = entry?.threadId === threadId ? entry.detail : null;
  const [readError, setReadError] = useState<string | null>(null);
  const threadRef = useRef(threadId);
  threadRef.current = threadId;
  const [olderEntry, setOlder] = useState<{ threadId: string; pages: ThreadDetail[] }>({
    threadId,
    pages: [],
  });
  const older = olderEntry.threadId === threadId ? olderEntry.pages : [];
  const loadingOlder = useRef(false);

  const scheduler = useMemo(
    () =>
      new RefreshScheduler(async () => {
        const requested = threadId;
        try {
          const next = await client.thread.detail.query({ threadId: requested });
          if (threadRef.current !== requested) return;
          setReadError(null);
          clearBackgroundFailure(`detail-${requested}`);
          setEntry((prev) =>
            prev !== null &&
            prev.threadId === requested &&
            prev.detail.snapshotSequence > next.snapshotSequence
              ? prev
              : { threadId: requested, detail: next },
          );
        } catch (error) {
          setReadError(errorMessage(error));
          notifyBackgroundFailure(`detail-${requested}`, "Could not refresh this thread.", error);
          throw error;
        }
      }, DETAIL_REFRESH_MS),
    [client, threadId],
  );
  useEffect(() => {
    const onOnline = () => scheduler.kick();
    window.addEventListener("online", onOnline);
    return () => {
      window.removeEventListener("online", onOnline);
      scheduler.dispose();
    };
  }, [scheduler]);

  const subscribe = useCallback<WatchSubscribe<ThreadDetail>>(
    (lastEventId, observer) =>
      client.thread.watchDetail.subscribe({ threadId, lastEventId }, observer),
    [client, threadId],
  );
  const watch = useWatch<ThreadDetail>({
    key: `detail:${threadId}`,
    subscribe,
    onSnapshot: (data) => setEntry({ threadId, detail: data }),
    onEvents: () => scheduler.request(),
  });

  const before = older[0]?.window.before ?? detail?.window.before ?? null;
  const loadOlder = useCallback(() => {
    if (before === null || loadingOlder.current) return;
    loadingOlder.current = true;
    const requested = threadId;
    client.thread.detail
      .query({ threadId: requested, window: { before } })
      .then((page) => {
        if (threadRef.current !== requested) return;
        setOlder((prev) => ({
          threadId: requested,
          pages: [page, ...(prev.threadId === requested ? prev.pages : [])],
        }));
      })
      .catch((error: unknown) => setReadError(errorMessage(error)))
      .finally(() => {
        loadingOlder.current = false;
      });
  }, [before, client, threadId]);

  return {
    detail,
    watch,
    readError,
    refresh: () => scheduler.request(),
    older,
    hasOlder: before !== null,
    loadOlder,
  };
}
