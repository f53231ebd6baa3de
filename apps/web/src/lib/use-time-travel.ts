"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { useApi } from "./api-context.tsx";
import { errorMessage } from "./errors.ts";
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
 * settle while a person drags, and an answer for a stop they already left is dropped.
 */
export function useTimeTravel(threadId: string): TimeTravel {
  const client = useApi();
  const [timeline, setTimeline] = useState<ThreadTimeline | null>(null);
  const [atSequence, setAt] = useState<number | null>(null);
  const [past, setPast] = useState<ThreadDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const wanted = useRef<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // A new thread starts live, with no stops loaded.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the thread changes
  useEffect(() => {
    wanted.current = null;
    setTimeline(null);
    setAt(null);
    setPast(null);
    setError(null);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [threadId]);

  const open = useCallback(() => {
    client.thread.timeline
      .query({ threadId })
      .then((next) => {
        setTimeline(next);
        setError(null);
      })
      .catch((failure: unknown) => setError(errorMessage(failure)));
  }, [client, threadId]);

  const moveTo = useCallback(
    (sequence: number | null) => {
      wanted.current = sequence;
      setAt(sequence);
      if (timer.current) clearTimeout(timer.current);
      if (sequence === null) {
        setPast(null);
        return;
      }
      timer.current = setTimeout(() => {
        client.thread.detail
          .query({ threadId, atSequence: sequence })
          .then((detail) => {
            if (wanted.current !== sequence) return;
            setPast(detail);
            setError(null);
          })
          .catch((failure: unknown) => {
            if (wanted.current === sequence) setError(errorMessage(failure));
          });
      }, SETTLE_MS);
    },
    [client, threadId],
  );

  return { timeline, atSequence, past, error, open, moveTo };
}
