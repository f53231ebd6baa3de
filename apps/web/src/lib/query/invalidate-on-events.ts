import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { Burst } from "./burst.ts";

/**
 * Invalidation driven by the event stream: `request()` for each batch of events that moved the
 * projection behind `queryKey`; one invalidation per burst re-reads it (if a screen shows it).
 *
 * An in-flight read may have left before the events it is asked for: it is let land, and the
 * key invalidated after it (not cancelled: under a steady stream, cancelling the read on every
 * batch would let none land).
 */
export function invalidateOnEvents(
  queryClient: QueryClient,
  queryKey: QueryKey,
  delayMs: number,
): Burst {
  return new Burst(async () => {
    const inFlight = queryClient.getQueryCache().find({ queryKey, exact: true })?.promise;
    if (inFlight !== undefined) await inFlight.catch(() => undefined);
    await queryClient.invalidateQueries({ queryKey, exact: true }, { cancelRefetch: false });
  }, delayMs);
}
