"use client";
import { useEffect, useRef, useState } from "react";
import { codeOf, rawErrorText } from "./errors.ts";
import type { StoredEvent, WatchMessage } from "./types.ts";
import { advanceCursor, initialCursor, lastEventIdOf, type WatchCursor } from "./watch-cursor.ts";

export type WatchStatus = "connecting" | "live" | "reconnecting" | "failed";

export type WatchObserver<TSnapshot> = {
  onData(value: { id: string; data: WatchMessage<TSnapshot> }): void;
  onError(error: unknown): void;
  onConnectionStateChange(state: { state: string; error: unknown }): void;
};

/** Starts one subscription from a cursor (`null`: from a fresh snapshot). */
export type WatchSubscribe<TSnapshot> = (
  lastEventId: string | null,
  observer: WatchObserver<TSnapshot>,
) => { unsubscribe(): void };

export type WatchOptions<TSnapshot> = {
  /** Identity of the watch; a new key starts over from a fresh snapshot. `null` pauses it. */
  key: string | null;
  subscribe: WatchSubscribe<TSnapshot>;
  onSnapshot(data: TSnapshot, sequence: number): void;
  /** Events after the cursor, in order, each exactly once (duplicates already dropped). */
  onEvents(events: readonly StoredEvent[]): void;
};

export type WatchState = {
  status: WatchStatus;
  cursor: WatchCursor;
  error: string | null;
};

/** Codes a retry cannot fix: the watch stops and says why. */
const FATAL_CODES = new Set(["NOT_FOUND", "BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN"]);
const RETRY_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000];
const CURSOR_PUBLISH_MS = 250;

/**
 * One watch procedure, held for the component's lifetime. The link resumes dropped connections
 * itself (sending the last tracked id); when it gives up, this hook starts a new subscription
 * with its own cursor as `lastEventId`, so the server replays only what was missed — or sends a
 * fresh snapshot, which resets the cursor. Duplicates are dropped here, never applied.
 */
export function useWatch<TSnapshot>(options: WatchOptions<TSnapshot>): WatchState {
  const { key } = options;
  const latest = useRef(options);
  latest.current = options;
  const [state, setState] = useState<WatchState>({
    status: "connecting",
    cursor: initialCursor,
    error: null,
  });

  useEffect(() => {
    if (key === null) return;
    let cursor: WatchCursor = initialCursor;
    let subscription: { unsubscribe(): void } | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | null = null;
    let attempt = 0;
    let stopped = false;
    let live = false;
    let cursorTimer: ReturnType<typeof setTimeout> | null = null;
    setState({ status: "connecting", cursor, error: null });

    // A busy log moves the cursor many times a second; the page only needs to re-render for a
    // status change, so cursor-only updates (debug display) are folded into one per interval.
    const publishCursor = () => {
      if (cursorTimer !== null) return;
      cursorTimer = setTimeout(() => {
        cursorTimer = null;
        if (!stopped) setState((s) => ({ ...s, cursor }));
      }, CURSOR_PUBLISH_MS);
    };

    const connect = () => {
      retryTimer = null;
      if (stopped) return;
      subscription?.unsubscribe();
      subscription = latest.current.subscribe(lastEventIdOf(cursor), {
        onData({ id, data }) {
          if (stopped) return;
          attempt = 0;
          const next = advanceCursor(cursor, id, data);
          cursor = next.state;
          if (!live || next.step.kind === "snapshot") {
            live = true;
            setState({ status: "live", cursor, error: null });
          } else {
            publishCursor();
          }
          if (next.step.kind === "snapshot") {
            latest.current.onSnapshot(next.step.data, next.step.sequence);
          } else if (next.step.events.length > 0) {
            latest.current.onEvents(next.step.events);
          }
        },
        onConnectionStateChange(change) {
          if (stopped) return;
          if (change.state === "connecting" && change.error) {
            live = false;
            setState((s) => ({ ...s, status: "reconnecting", error: rawErrorText(change.error) }));
          } else if (change.state === "pending") {
            live = true;
            setState((s) => ({ ...s, status: "live", error: null }));
          }
        },
        onError(error) {
          if (stopped) return;
          live = false;
          const fatal = FATAL_CODES.has(codeOf(error) ?? "");
          setState((s) => ({
            ...s,
            status: fatal ? "failed" : "reconnecting",
            error: rawErrorText(error),
          }));
          if (fatal) return;
          const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)]!;
          attempt += 1;
          retryTimer = setTimeout(connect, delay);
        },
      });
    };

    // Back online: do not wait out the back-off.
    const onOnline = () => {
      if (retryTimer === null) return;
      clearTimeout(retryTimer);
      connect();
    };
    window.addEventListener("online", onOnline);
    connect();
    return () => {
      stopped = true;
      window.removeEventListener("online", onOnline);
      if (retryTimer !== null) clearTimeout(retryTimer);
      if (cursorTimer !== null) clearTimeout(cursorTimer);
      subscription?.unsubscribe();
    };
  }, [key]);

  return state;
}
