"use client";
import { useEffect, useMemo, useState } from "react";
import { useApi } from "./api-context.tsx";
import { errorMessage } from "./errors.ts";
import { useShells } from "./shells-store.tsx";
import type { PendingRequest, ThreadShell } from "./types.ts";

export type ThreadRequests = { thread: ThreadShell; requests: PendingRequest[] };

/**
 * P5 across threads: the live sidebar rows say which threads wait on someone; their details
 * carry the requests with `answerable`. A thread is re-read only when its row changes.
 */
export function usePendingRequests(): { groups: ThreadRequests[]; error: string | null } {
  const client = useApi();
  const { shells } = useShells();
  const waiting = useMemo(
    () => [...shells.values()].filter((shell) => shell.pendingRequestCount > 0),
    [shells],
  );
  const key = waiting
    .map((s) => `${s.id}:${s.pendingRequestCount}:${s.status}:${s.updatedAt}`)
    .join("|");
  const [groups, setGroups] = useState<ThreadRequests[]>([]);
  const [error, setError] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` summarizes `waiting`
  useEffect(() => {
    let cancelled = false;
    Promise.all(
      waiting.map(async (thread) => {
        const detail = await client.thread.detail.query({ threadId: thread.id });
        return { thread: detail.thread, requests: detail.pendingRequests };
      }),
    )
      .then((next) => {
        if (cancelled) return;
        setGroups(next.filter((group) => group.requests.length > 0));
        setError(null);
      })
      .catch((caught: unknown) => {
        if (!cancelled) setError(errorMessage(caught));
      });
    return () => {
      cancelled = true;
    };
  }, [client, key]);

  return { groups, error };
}
