import type { StoredEvent, SubscriptionFilter } from "../event-store.ts";

export type EventPredicate = (event: StoredEvent) => boolean;

export function eventPredicate(filter: SubscriptionFilter | undefined): EventPredicate {
  if (filter === undefined) return () => true;
  if ("streamIds" in filter) {
    const ids = new Set(filter.streamIds);
    return (event) => ids.has(event.streamId);
  }
  const prefix = filter.streamPrefix;
  return (event) => event.streamId.startsWith(prefix);
}
