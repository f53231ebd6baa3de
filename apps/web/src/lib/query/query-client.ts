import { QueryClient } from "@tanstack/react-query";
import { codeOf } from "../errors.ts";

/** Codes a second try cannot fix: the request itself is wrong or not allowed. */
const FATAL_CODES = new Set(["NOT_FOUND", "BAD_REQUEST", "UNAUTHORIZED", "FORBIDDEN", "CONFLICT"]);
const MAX_RETRY_MS = 10_000;
/** Tries of a re-read after an event: with the delays below, about 45 s before it gives up. */
export const LIVE_TRIES = 8;

export function isFatal(error: unknown): boolean {
  return FATAL_CODES.has(codeOf(error) ?? "");
}

/**
 * One-off reads: a dropped connection is worth two more tries, a refused request is not (its
 * message is what the person needs to see, at once).
 */
export function retryOneOff(failures: number, error: unknown): boolean {
  return failures < 2 && !isFatal(error);
}

/**
 * Re-reads after an event: the change was already announced, and no later event may come to ask
 * again, so they try for a while (paused while offline, resumed by react-query when the network
 * is back). Then they stop and the screen says it could not refresh, with a "Try again": a server
 * that keeps failing is not asked forever.
 */
export function retryLive(failures: number, error: unknown): boolean {
  return failures < LIVE_TRIES - 1 && !isFatal(error);
}

export function retryDelay(failures: number): number {
  return Math.min(MAX_RETRY_MS, 250 * 2 ** failures);
}

/**
 * What the app reads is kept live by its event stream, not by timers: nothing refetches on focus
 * or on its own; a query is read again when an event (or the person's own action) says it moved.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        retry: retryOneOff,
        retryDelay,
      },
    },
  });
}
