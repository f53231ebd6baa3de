"use client";
import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { afterNextPaint } from "./after-next-paint.ts";
import { useApi } from "./api-context.tsx";
import { errorMessage } from "./errors.ts";
import { clearBackgroundFailure, notifyBackgroundFailure } from "./notify.ts";
import { withOlderWindow } from "./older-windows.ts";
import { FramePublisher } from "./frame-publisher.ts";
import {
  fromSnapshot,
  type LiveDetail,
  type LiveStep,
  readFailed,
  readLanded,
  readStarted,
  receive,
} from "./live-detail.ts";
import { invalidateOnEvents } from "./query/invalidate-on-events.ts";
import { queryKeys } from "./query/keys.ts";
import { newestOf } from "./query/newest-wins.ts";
import { retryDelay, retryLive } from "./query/query-client.ts";
import type { ThreadDetail } from "./types.ts";
import { adoptWatch, preopenedSnapshot, preopenWatch } from "./preopened-watches.ts";
import type { SkeinClient } from "@skein/contract";
import { useWatch, type WatchState, type WatchSubscribe } from "./use-watch.ts";

/** Re-reads follow structural events only (deltas are applied here): this folds their bursts. */
const DETAIL_REFRESH_MS = 120;
/**
 * The live state is the detail's home; the cache only holds the base read last (a large object on
 * a long thread), so it goes with the screen. A reopened thread starts from its watch's snapshot.
 */
const DETAIL_GC_MS = 0;

const detailWatchKey = (threadId: string) => `detail:${threadId}`;

/** Runs in the live window the page reads (the API's default window, `DEFAULT_WINDOW_RUNS`). */
const LIVE_WINDOW_RUNS = 50;
/**
 * Issue 29: a switch to a long thread asks first for the runs that fill the screen, not the
 * whole live window: the 50-run snapshot (~100 KB on the bench thread) was most of the time to
 * the first paint, at the server, on the wire and in the browser. The live window follows once
 * that frame is painted (`widenAfterPaint`).
 */
const FIRST_WINDOW_RUNS = 8;
/** Threads whose preopened watch asked for the first window only, until their frame adopts it. */
const narrowFirst = new Set<string>();

/**
 * Opens the thread's detail watch now, for the page a navigation to it is about to render
 * (`preopened-watches.ts`): its snapshot then travels while the page does. `runCount` (the
 * sidebar row's) says whether the thread is longer than the live window: only then does the
 * watch start from the first screen's runs, since a shorter thread's window is all of it.
 */
export function preopenThreadDetail(client: SkeinClient, threadId: string, runCount = 0): void {
  // Any of its tabs open already holds its watch: that frame stays, and adopts nothing.
  const open = /^\/threads\/([^/]+)/.exec(window.location.pathname)?.[1];
  if (open !== undefined && decodeURIComponent(open) === threadId) return;
  const narrow = runCount > LIVE_WINDOW_RUNS;
  const opened = preopenWatch<ThreadDetail>(detailWatchKey(threadId), (observer) =>
    client.thread.watchDetail.subscribe(
      narrow
        ? { threadId, lastEventId: null, window: { limit: FIRST_WINDOW_RUNS } }
        : { threadId, lastEventId: null },
      observer,
    ),
  );
  if (opened && narrow) narrowFirst.add(threadId);
  else if (opened) narrowFirst.delete(threadId);
}

/**
 * Once the first window's frame is painted, the live window is read (the detail query's read:
 * the same sequence and a wider window, which `readLanded` takes in place of the first).
 */
function widenAfterPaint(queryClient: QueryClient, threadId: string): void {
  void afterNextPaint().then(() =>
    queryClient.invalidateQueries(
      { queryKey: queryKeys.threadDetail(threadId), exact: true },
      { cancelRefetch: false },
    ),
  );
}

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
 * P2 for one thread, live: the `thread.watchDetail` snapshot, then its events. A streamed delta
 * is applied in the browser to the item it extends (`live-detail.ts`); any other event
 * invalidates the `thread.detail` query (once per burst), whose read lands in the live state. The backend orders `turnItems`; this hook never merges
 * or reorders them. A re-read older than what is shown is ignored; a fresh snapshot from the
 * watch always wins (it is how the server says "start over").
 */
export function useThreadDetail(threadId: string): ThreadDetailState {
  const client = useApi();
  // Tagged with its thread, so a navigation never shows the previous thread's detail. A snapshot
  // that a click's watch received before this page rendered is drawn at once (the watch, adopted
  // below, replays it to the same effect).
  const [early] = useState(() => {
    const snapshot = preopenedSnapshot<ThreadDetail>(detailWatchKey(threadId));
    return snapshot === undefined
      ? null
      : { threadId, state: fromSnapshot(null, snapshot), snapshot };
  });
  const [entry, setEntry] = useState<{ threadId: string; detail: ThreadDetail } | null>(() =>
    early === null ? null : { threadId, detail: early.state.shown },
  );
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
  // While the first window (`FIRST_WINDOW_RUNS`) is shown, its `before` cursor: the live window
  // follows it, not older windows (one asked from the first window would overlap the live one).
  const narrowWindow = useRef<string | null>(null);
  // The live state changes with every event; React sees it at most once per frame (`publish`).
  const live = useRef<{ threadId: string; state: LiveDetail } | null>(early);
  const publisher = useMemo(
    () =>
      new FramePublisher(() => {
        const current = live.current;
        if (current === null) return;
        const { threadId: owner, state } = current;
        setEntry((prev) =>
          prev?.threadId === owner && prev.detail === state.shown
            ? prev
            : { threadId: owner, detail: state.shown },
        );
      }),
    [],
  );
  useEffect(() => () => publisher.cancel(), [publisher]);

  const queryClient = useQueryClient();
  // Only the latest read may land: an older one's answer is dropped, not applied out of turn.
  const reads = useRef(0);
  const reader = useMemo(() => {
    /** Moves the live state of `requested` on (nothing once another thread is open). */
    const update = (requested: string, change: (state: LiveDetail) => LiveStep | LiveDetail) => {
      const current = live.current;
      if (current?.threadId !== requested) return;
      const step = change(current.state);
      const next = "state" in step ? step : { state: step, reread: false };
      live.current = { threadId: requested, state: next.state };
      publisher.request();
      if (next.reread) invalidator.request();
    };
    const invalidator = invalidateOnEvents(
      queryClient,
      queryKeys.threadDetail(threadId),
      DETAIL_REFRESH_MS,
    );
    /** The query's read: its start and answer are steps of the live state (`live-detail.ts`). */
    const read = async (): Promise<ThreadDetail> => {
      const requested = threadId;
      const token = ++reads.current;
      update(requested, readStarted);
      try {
        const next = await client.thread.detail.query({ threadId: requested });
        if (token === reads.current && threadRef.current === requested) {
          setReadError(null);
          clearBackgroundFailure(`detail-${requested}`);
          update(requested, (state) => readLanded(state, next));
        }
        return next;
      } catch (error) {
        if (token === reads.current) update(requested, readFailed);
        if (threadRef.current === requested) setReadError(errorMessage(error));
        notifyBackgroundFailure(`detail-${requested}`, "Could not refresh this thread.", error);
        throw error;
      }
    };
    return { invalidator, update, read };
  }, [client, queryClient, threadId, publisher]);
  useEffect(() => () => reader.invalidator.dispose(), [reader]);

  // Re-reads go through the query (retried with back-off, resumed when the network returns); it
  // reads only after the watch's snapshot seeded it, which is the first paint's answer.
  const [seeded, setSeeded] = useState<string | null>(null);
  useQuery({
    queryKey: queryKeys.threadDetail(threadId),
    queryFn: reader.read,
    enabled: seeded === threadId,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: DETAIL_GC_MS,
    structuralSharing: newestOf,
    retry: retryLive,
    retryDelay,
    // Nothing of the result is read here: its fetch states must not render the thread again.
    notifyOnChangeProps: [],
  });

  // A fresh start takes over the watch a click on the thread opened ahead of this page, if any.
  const subscribe = useCallback<WatchSubscribe<ThreadDetail>>(
    (lastEventId, observer) =>
      (lastEventId === null ? adoptWatch(detailWatchKey(threadId), observer) : null) ??
      client.thread.watchDetail.subscribe({ threadId, lastEventId }, observer),
    [client, threadId],
  );
  const watch = useWatch<ThreadDetail>({
    key: detailWatchKey(threadId),
    subscribe,
    onSnapshot: (data) => {
      // The snapshot drawn in the first render, replayed by the adopted watch, shows nothing new.
      if (data !== early?.snapshot) {
        const prev = live.current?.threadId === threadId ? live.current.state : null;
        live.current = { threadId, state: fromSnapshot(prev, data) };
        // The first paint of a thread should not wait for a frame.
        publisher.flush();
      }
      queryClient.setQueryData(queryKeys.threadDetail(threadId), (previous: unknown) =>
        newestOf(previous, data),
      );
      setSeeded(threadId);
      if (narrowFirst.delete(threadId) && data.window.before !== null) {
        narrowWindow.current = data.window.before;
        widenAfterPaint(queryClient, threadId);
      }
    },
    onEvents: (events) => reader.update(threadId, (state) => receive(state, events)),
  });

  // Stable, so the memoized composer (`onSent`) does not render again with every delta.
  const refresh = useCallback(() => reader.invalidator.request(), [reader]);

  const before = older[0]?.window.before ?? detail?.window.before ?? null;
  const liveBefore = useRef<string | null>(null);
  liveBefore.current = detail?.window.before ?? null;
  const loadOlder = useCallback(() => {
    if (before === null || loadingOlder.current) return;
    if (narrowWindow.current !== null && narrowWindow.current === liveBefore.current) return;
    loadingOlder.current = true;
    const requested = threadId;
    client.thread.detail
      .query({ threadId: requested, window: { before } })
      .then((page) => {
        if (threadRef.current !== requested) return;
        setOlder((prev) => {
          const shown = prev.threadId === requested ? prev.pages : [];
          const pages = withOlderWindow(shown, page, before, liveBefore.current);
          return pages === shown && prev.threadId === requested
            ? prev
            : { threadId: requested, pages: [...pages] };
        });
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
    refresh,
    older,
    hasOlder: before !== null,
    loadOlder,
  };
}
