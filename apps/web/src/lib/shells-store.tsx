"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { afterNextPaint } from "./after-next-paint.ts";
import { requiredContext } from "./required-context.ts";
import { SearchGate } from "./search-gate.ts";
import { useApi } from "./api-context.tsx";
import { queryKeys } from "./query/keys.ts";
import { reads } from "./query/reads.ts";
import { ShellRowReader } from "./shell-rows.ts";
import type { Project, StoredEvent, ThreadShell, ThreadShellList } from "./types.ts";
import { useWatch, type WatchState, type WatchSubscribe } from "./use-watch.ts";

/** Thread-stream events that can change a sidebar row (status, counts, title, archive, new). */
// A conversation checkpoint carries the row's diff stat (issue 29). Kept equal to watches.ts's.
const SHELL_EVENT = /^(Thread|Run|Attempt|RuntimeRequest|Checkpoint(Recorded|MarkedMissing))/;
const SHELL_REFRESH_MS = 250;
const NO_PROJECTS: readonly Project[] = [];
/** Rows read in the background before the list shows them (see loadMore). */
const BACKGROUND_BATCH_ROWS = 5_000;
/** A search's answer holds background pages back this long at most (search-gate.ts). */
const SEARCH_WAIT_MS = 3_000;

export type ShellsState = {
  shells: ReadonlyMap<string, ThreadShell>;
  projects: readonly Project[];
  loaded: boolean;
  watch: WatchState;
  refreshProjects(): void;
  /** Re-read one thread's row now (after a mutation the UI wants reflected at once). */
  refreshThread(threadId: string): void;
  /** B7: whether older threads than the pages loaded exist. */
  hasMore: boolean;
  /** Loads the next page of older threads (no-op while one is loading). */
  loadMore(): void;
  /**
   * Adds the server's matches for `query` (threads not on a loaded page yet, and, issue 29,
   * threads found by what was said in them rather than their title).
   */
  search(query: string): void;
  /** The latest search's answer: the threads it found by a message, with the text around it. */
  found: SearchFound;
};

export type SearchFound = { query: string; excerpts: ReadonlyMap<string, string> };
const NOTHING_FOUND: SearchFound = { query: "", excerpts: new Map() };

const { Context: ShellsContext, useRequired: useShellsState } =
  requiredContext<ShellsState>("<ShellsProvider>");

export function threadIdOfStream(streamId: string): string | null {
  return streamId.startsWith("thread-") ? streamId.slice("thread-".length) : null;
}

/**
 * P1 for the whole app, live: the `thread.watchShells` snapshot, then, for events that touch a
 * row, one read per burst of just those threads' rows (their `thread.detail` carries the row,
 * read through the query cache), so a reply streaming in one thread never re-downloads 10,000
 * rows. Archived threads leave the list. Projects are the shared `project.list` query.
 */
export function ShellsProvider({ children }: { children?: ReactNode }) {
  const client = useApi();
  const [shells, setShells] = useState<ReadonlyMap<string, ThreadShell>>(new Map());
  const [loaded, setLoaded] = useState(false);
  const snapshots = useRef(0);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const paging = useRef(false);

  /** Rows read outside the watch (older pages, search hits); never replaces a newer row. */
  const addRows = useCallback((...lists: ThreadShellList[]) => {
    setShells((previous) => {
      // Copied only when a row is new or newer: a search's answer is mostly rows the list has
      // (all of them once paged in), and an unchanged map spares the sidebar a rebuild.
      let next: Map<string, ThreadShell> | null = null;
      for (const list of lists) {
        for (const row of list.threads) {
          if ((rowSequence.current.get(row.id) ?? -1) > list.snapshotSequence) continue;
          rowSequence.current.set(row.id, list.snapshotSequence);
          const shown = previous.get(row.id);
          if (shown !== undefined && JSON.stringify(shown) === JSON.stringify(row)) continue;
          next ??= new Map(previous);
          next.set(row.id, row);
        }
      }
      return next ?? previous;
    });
  }, []);
  /**
   * Issue 29: background pages asked while a search is in flight queued at the server ahead of
   * it, and a batch of them landing rebuilt the list while the person waited for their search's
   * rows; they wait for it, but not for ever (a stalled search, one replaced by a newer one).
   */
  const [gate] = useState(() => new SearchGate(SEARCH_WAIT_MS));
  const loadMore = useCallback(() => {
    if (nextCursor === null || paging.current) return;
    paging.current = true;
    // Pages are read one after another but shown a batch at a time: each change of the list
    // rebuilds the sidebar's rows from every thread, so 100,000 threads shown page by page cost
    // 200 rebuilds of a growing list (frames of hundreds of ms while scrolling); in batches, 20.
    const pages: ThreadShellList[] = [];
    let rows = 0;
    // Each page is asked once no search is in flight: the person's search goes first.
    const read = (cursor: string): Promise<string | null> =>
      gate
        .idle()
        .then(() => client.thread.shells.query({ cursor, limit: 500 }))
        .then((page) => {
          pages.push(page);
          rows += page.threads.length;
          return page.nextCursor !== null && rows < BACKGROUND_BATCH_ROWS
            ? read(page.nextCursor)
            : page.nextCursor;
        });
    // Paging ends before the cursor moves, so the effect below can start the next batch.
    const finish = (cursor: string | null) => {
      paging.current = false;
      if (pages.length > 0) addRows(...pages);
      if (cursor !== nextCursor) setNextCursor(cursor);
    };
    // A failed page stops the background reading (what was read before it still shows). The
    // batch is shown once no search is in flight either, and after a frame, so that the rows a
    // search's answer brings are drawn before the list grows.
    const settled = <T,>(value: T) =>
      gate
        .idle()
        .then(afterNextPaint)
        .then(() => value);
    read(nextCursor)
      .then(settled)
      .then(finish, () => settled(pages.at(-1)?.nextCursor ?? nextCursor).then(finish));
  }, [addRows, client, gate, nextCursor]);
  // The sidebar's search and the graph look threads up in this list: after the first page (shown
  // at once) the rest follows in the background, a batch of pages at a time.
  useEffect(() => {
    if (nextCursor !== null) loadMore();
  }, [nextCursor, loadMore]);
  const [found, setFound] = useState<SearchFound>(NOTHING_FOUND);
  const latestQuery = useRef("");
  const search = useCallback(
    (query: string) => {
      const trimmed = query.trim();
      latestQuery.current = trimmed;
      if (trimmed === "") {
        setFound(NOTHING_FOUND);
        return;
      }
      const answer = client.thread.shells.query({ query: trimmed });
      gate.begin(answer);
      answer
        .then((page) => {
          addRows(page);
          // An answer to a query typed over since is dropped (the list shows the newer one's).
          if (latestQuery.current !== trimmed) return;
          setFound({ query: trimmed, excerpts: new Map(Object.entries(page.excerpts ?? {})) });
        })
        .catch(() => undefined);
    },
    [addRows, client, gate],
  );
  // Per-thread sequence of the row shown, so a slow re-read never replaces a newer one.
  const rowSequence = useRef(new Map<string, number>());

  const queryClient = useQueryClient();
  const projectsQuery = useQuery(reads.projects(client));
  const projects = projectsQuery.data?.projects ?? NO_PROJECTS;
  const refreshProjects = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.projects() }),
    [queryClient],
  );

  const rows = useMemo(
    () =>
      new ShellRowReader(
        queryClient,
        client,
        (results) =>
          setShells((previous) => {
            const next = new Map(previous);
            for (const { threadId, detail, gone } of results) {
              if (detail === null) {
                if (gone) next.delete(threadId);
                continue;
              }
              if ((rowSequence.current.get(threadId) ?? -1) > detail.snapshotSequence) continue;
              rowSequence.current.set(threadId, detail.snapshotSequence);
              const row = detail.thread;
              if (row.archivedAt !== null || row.deletedAt !== null) next.delete(threadId);
              else next.set(threadId, row);
            }
            return next;
          }),
        SHELL_REFRESH_MS,
      ),
    [client, queryClient],
  );
  useEffect(() => () => rows.dispose(), [rows]);

  const subscribe = useCallback<WatchSubscribe<ThreadShellList>>(
    (lastEventId, observer) => client.thread.watchShells.subscribe({ lastEventId }, observer),
    [client],
  );
  const watch = useWatch<ThreadShellList>({
    key: "shells",
    subscribe,
    onSnapshot: (data) => {
      rowSequence.current = new Map(data.threads.map((t) => [t.id, data.snapshotSequence]));
      setShells(new Map(data.threads.map((t) => [t.id, t])));
      setNextCursor(data.nextCursor);
      setLoaded(true);
      // A fresh snapshot after the first (a reconnect) may follow projects made meanwhile.
      if (snapshots.current++ > 0) refreshProjects();
    },
    onEvents: (events: readonly StoredEvent[]) => {
      for (const event of events) {
        const threadId = threadIdOfStream(event.streamId);
        if (threadId !== null && SHELL_EVENT.test(event.type)) rows.touch(threadId);
      }
    },
  });

  // A thread of a project this page has not listed yet: the project was created elsewhere.
  // Each unknown id triggers one re-read, so a project the list never returns cannot loop.
  const askedFor = useRef(new Set<string>());
  useEffect(() => {
    const known = new Set(projects.map((p) => p.id));
    for (const shell of shells.values()) {
      if (!known.has(shell.projectId) && !askedFor.current.has(shell.projectId)) {
        askedFor.current.add(shell.projectId);
        refreshProjects();
        return;
      }
    }
  }, [shells, projects, refreshProjects]);

  const value = useMemo<ShellsState>(
    () => ({
      shells,
      projects,
      loaded,
      watch,
      refreshProjects,
      refreshThread: (threadId) => rows.touch(threadId),
      hasMore: nextCursor !== null,
      loadMore,
      search,
      found,
    }),
    [shells, projects, loaded, watch, refreshProjects, rows, nextCursor, loadMore, search, found],
  );
  return <ShellsContext value={value}>{children}</ShellsContext>;
}

export function useShells(): ShellsState {
  return useShellsState();
}
