"use client";
import { useCallback, useEffect, useMemo } from "react";
import { useApi } from "./api-context.tsx";
import { clearBackgroundFailure, notifyBackgroundFailure } from "./notify.ts";
import { useShells } from "./shells-store.tsx";
import type { PendingRequest, PendingRequestList, ThreadShell } from "./types.ts";
import { queryKeys } from "./query/keys.ts";
import { useWatchedQuery } from "./query/use-watched-query.ts";
import type { WatchSubscribe } from "./use-watch.ts";

export type ThreadRequests = { thread: ThreadShell; requests: PendingRequest[] };

/** Answers and new requests come as events in bursts (a run ending cancels several at once). */
const PENDING_REFRESH_MS = 100;

/**
 * P5 across threads, live: `request.watchPending`'s snapshot, then `request.pending` invalidated
 * once per burst of events that can open, answer or expire a request (no polling).
 * Grouped by thread, in the sidebar's thread rows.
 */
export function usePendingRequests(): { groups: ThreadRequests[]; error: string | null } {
  const client = useApi();
  const { shells } = useShells();
  const subscribe = useCallback<WatchSubscribe<PendingRequestList>>(
    (lastEventId, observer) => client.request.watchPending.subscribe({ lastEventId }, observer),
    [client],
  );
  const { data, watch, error, refresh } = useWatchedQuery<PendingRequestList>({
    queryKey: queryKeys.pendingRequests(),
    subscribe,
    read: () => client.request.pending.query(),
    delayMs: PENDING_REFRESH_MS,
  });
  // The sidebar rows are live too: a thread whose pending count, status or time moved is a second
  // signal to re-read (coalesced with the watch's), should one of the two lag behind the other.
  const shown = useMemo(() => new Set(data?.requests.map((r) => r.threadId)), [data]);
  const rowsKey = [...shells.values()]
    .filter((shell) => shell.pendingRequestCount > 0 || shown.has(shell.id))
    .map((s) => `${s.id}:${s.pendingRequestCount}:${s.status}:${s.updatedAt}`)
    .join("|");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `rowsKey` says when to read again
  useEffect(() => refresh(), [rowsKey]);
  const failure = error ?? (watch.status === "failed" ? watch.error : null);
  useEffect(() => {
    if (failure === null) clearBackgroundFailure("pending-requests");
    else notifyBackgroundFailure("pending-requests", "Could not load approvals.", failure, refresh);
  }, [failure, refresh]);

  const groups = useMemo(() => {
    const byThread = new Map<string, ThreadRequests>();
    for (const request of data?.requests ?? []) {
      const thread = shells.get(request.threadId);
      if (!thread) continue;
      let group = byThread.get(thread.id);
      if (!group) {
        group = { thread, requests: [] };
        byThread.set(thread.id, group);
      }
      group.requests.push(request);
    }
    return [...byThread.values()];
  }, [data, shells]);

  return { groups, error: failure };
}
