"use client";
import { useEffect, useMemo, useState } from "react";
import { useApi } from "./api-context.tsx";
import { errorMessage } from "./errors.ts";
import { notifyBackgroundFailure } from "./notify.ts";
import { useShells } from "./shells-store.tsx";
import type { PendingRequest, ThreadShell } from "./types.ts";

export type ThreadRequests = { thread: ThreadShell; requests: PendingRequest[] };

/**
 * P5 across threads, in one read (`request.pending`), grouped by thread. The live sidebar rows
 * say when something changed (a thread's pending count, status or update time), which is when
 * the list is read again. Threads whose requests are on screen are watched too: the rows are
 * re-read in batches, so a request answered quickly may never show a count above zero there,
 * and only its thread's next change says the list is stale.
 */
export function usePendingRequests(): { groups: ThreadRequests[]; error: string | null } {
  const client = useApi();
  const { shells } = useShells();
  const [requests, setRequests] = useState<PendingRequest[]>([]);
  const [error, setError] = useState<string | null>(null);
  const watched = useMemo(() => {
    const shown = new Set(requests.map((request) => request.threadId));
    return [...shells.values()].filter(
      (shell) => shell.pendingRequestCount > 0 || shown.has(shell.id),
    );
  }, [shells, requests]);
  const key = watched
    .map((s) => `${s.id}:${s.pendingRequestCount}:${s.status}:${s.updatedAt}`)
    .join("|");

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` says when to read again
  useEffect(() => {
    let cancelled = false;
    client.request.pending
      .query()
      .then((list) => {
        if (cancelled) return;
        setRequests(list.requests);
        setError(null);
      })
      .catch((caught: unknown) => {
        if (cancelled) return;
        setError(errorMessage(caught));
        notifyBackgroundFailure("pending-requests", "Could not load approvals.", caught);
      });
    return () => {
      cancelled = true;
    };
  }, [client, key]);

  const groups = useMemo(() => {
    const byThread = new Map<string, ThreadRequests>();
    for (const request of requests) {
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
  }, [requests, shells]);

  return { groups, error };
}
