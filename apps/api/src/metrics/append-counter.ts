import { type EventStore, type StoredEvent, SubscriberOverflow } from "@skein/db";

/**
 * Hands every event appended from now on to `count`, exactly once, without touching the commit
 * path: a store subscription from the current head. A counter that falls behind resumes from the
 * last event it counted (the store replays the gap from the log), so a burst is late, not lost.
 * Returns a stop function.
 */
export function countAppends(store: EventStore, count: (event: StoredEvent) => void): () => void {
  let stopped = false;
  let current: { close(): void } | null = null;
  const follow = async () => {
    let cursor = await store.headSequence();
    while (!stopped) {
      const subscription = store.subscribe({ afterSequence: cursor });
      current = subscription;
      try {
        for await (const event of subscription) {
          cursor = event.sequence;
          count(event);
        }
        return; // the store closed the feed (shutdown)
      } catch (error) {
        if (!(error instanceof SubscriberOverflow)) throw error;
      } finally {
        subscription.close();
      }
    }
  };
  // The store may close first at shutdown; a counter has nothing to report then.
  follow().catch(() => undefined);
  return () => {
    stopped = true;
    current?.close();
  };
}
