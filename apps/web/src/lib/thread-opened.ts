"use client";
import { useEffect, useSyncExternalStore } from "react";
import { laterOf } from "./row-attention.ts";

/**
 * Per browser, like the Review page's "since I last looked" (review-seen.ts): when each thread was
 * last open here, and when this browser started keeping track (the baseline for threads never
 * opened). Kept in localStorage; rows re-read through a subscription when a thread is opened.
 */
const OPENED_KEY = "skein.sidebar.openedAt.";
const SINCE_KEY = "skein.sidebar.trackingSince";

const listeners = new Set<() => void>();
let version = 0;

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // Storage can be disabled (private mode, policies): then nothing is known.
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Not remembered across reloads, which is all storage would have added.
  }
}

/** When this browser started tracking: set on first use, so older runs never read as unread. */
function trackingSince(): string | null {
  const known = read(SINCE_KEY);
  if (known !== null) return known;
  write(SINCE_KEY, new Date().toISOString());
  return read(SINCE_KEY);
}

/** What `rowAttention` compares a thread's last run end with. */
export function seenUpTo(threadId: string): string | null {
  return read(OPENED_KEY + threadId) ?? trackingSince();
}

/**
 * Records the thread as open now. `lastRunEndedAt` (the server's clock) counts too, so a run seen
 * ending while the thread is open never reads as unread because the two clocks differ.
 */
export function markThreadOpened(threadId: string, lastRunEndedAt: string | undefined): void {
  write(OPENED_KEY + threadId, laterOf(new Date().toISOString(), lastRunEndedAt));
  version += 1;
  for (const listener of [...listeners]) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    // Another tab opened a thread.
    if (event.key?.startsWith(OPENED_KEY)) {
      version += 1;
      listener();
    }
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** Re-renders the caller when any thread is marked opened; read `seenUpTo` during render. */
export function useOpenedVersion(): number {
  return useSyncExternalStore(
    subscribe,
    () => version,
    () => 0,
  );
}

/** While a thread is on screen: it is read, including runs that end while the person watches. */
export function useMarkThreadOpened(threadId: string, lastRunEndedAt: string | undefined): void {
  useEffect(() => {
    markThreadOpened(threadId, lastRunEndedAt);
  }, [threadId, lastRunEndedAt]);
}
