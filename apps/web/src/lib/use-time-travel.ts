"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useApi } from "./api-context.tsx";
import { errorMessage } from "./errors.ts";
import { queryKeys } from "./query/keys.ts";
import type { ThreadDetail, ThreadTimeline } from "./types.ts";

/** Long enough to skip the stops a drag passes over, short enough to feel immediate. */
const SETTLE_MS = 120;

export type TimeTravel = {
  /** The scrubber's stops; null until the timeline is opened. */
  timeline: ThreadTimeline | null;
  /** The sequence shown, or null when the thread is shown live. */
  atSequence: number | null;
  /** The thread as it was at `atSequence` (the last one read while a newer read is on its way). */
  past: ThreadDetail | null;
  error: string | null;
  /** Loads (or reloads) the stops; the view stays live until the person moves. */
  open(): void;
  /** Shows the thread as of `sequence`; null returns to live. */
  moveTo(sequence: number | null): void;
};

/**
 * B8 on screen: the thread as it stood at any of its past events, read with `atSequence`. Reads
 * settle while a person drags; each moment is a query of its own, and since the past does not
 * change, a stop visited before shows again at once.
 */
export function useTimeTravel(threadId: string): TimeTravel {
  const client = useApi();
  const queryClient = useQueryClient();
  // Tagged with their thread: a new thread starts live, with no stops loaded.
  const [opened, setOpened] = useState<string | null>(null);
  const [at, setAt] = useState<{ threadId: string; sequence: number | null }>({
    threadId,
    sequence: null,
  });
  const [settled, setSettled] = useState<{ threadId: string; sequence: number | null }>(at);
  const atSequence = at.threadId === threadId ? at.sequence : null;
  const settledSequence = settled.threadId === threadId ? settled.sequence : null;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a pending settle belongs to its thread
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [threadId],
  );

  const timeline = useQuery({
    queryKey: queryKeys.timeline(threadId),
    queryFn: () => client.thread.timeline.query({ threadId }),
    enabled: opened === threadId,
    staleTime: 0,
  });
  const past = useQuery({
    queryKey: queryKeys.threadAt(threadId, settledSequence),
    queryFn: () => client.thread.detail.query({ threadId, atSequence: settledSequence as number }),
    enabled: atSequence !== null && settledSequence !== null,
    staleTime: Number.POSITIVE_INFINITY,
    // While a drag's newer moment is read, the last one read stays (a moment of this thread
    // only: back to live, then a new stop, shows nothing until its own answer).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === threadId && previousQuery.queryKey[3] !== null
        ? previous
        : undefined,
  });

  const open = useCallback(() => {
    if (opened === threadId) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.timeline(threadId) });
    } else setOpened(threadId);
  }, [opened, queryClient, threadId]);

  const moveTo = useCallback(
    (sequence: number | null) => {
      setAt({ threadId, sequence });
      if (timer.current) clearTimeout(timer.current);
      if (sequence === null) {
        setSettled({ threadId, sequence: null });
        return;
      }
      timer.current = setTimeout(() => setSettled({ threadId, sequence }), SETTLE_MS);
    },
    [threadId],
  );

  const failure = timeline.error ?? (atSequence === null ? null : past.error);
  return {
    timeline: opened === threadId ? (timeline.data ?? null) : null,
    atSequence,
    past: atSequence === null ? null : (past.data ?? null),
    error: failure === null ? null : errorMessage(failure),
    open,
    moveTo,
  };
}
