import type { BusStats, EventSubscription, StoredEvent, SubscribeOptions } from "../event-store.ts";
import { eventPredicate } from "./event-filter.ts";
import { type ReadAfter, Subscription } from "./subscription.ts";

export type EventBusOptions = {
  /** Backfill source: committed events after a sequence, in order. */
  readAfter: ReadAfter;
  /** Default per-subscriber bound on undelivered events. */
  bufferSize?: number;
  backfillPageSize?: number;
};

export const DEFAULT_SUBSCRIBER_BUFFER = 10_000;
const DEFAULT_BACKFILL_PAGE = 500;

/**
 * In-process fan-out of committed events. The store publishes each committed batch after its
 * transaction, in sequence order; publishing never blocks on a consumer (each subscriber buffers,
 * up to its bound).
 */
export class EventBus {
  private readonly subscribers = new Set<Subscription>();

  constructor(private readonly options: EventBusOptions) {}

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Subscribers attached now and the largest backlog among them (operations metrics). */
  stats(): BusStats {
    let maxBacklog = 0;
    for (const subscriber of this.subscribers)
      maxBacklog = Math.max(maxBacklog, subscriber.backlog);
    return { subscribers: this.subscribers.size, maxBacklog };
  }

  publish(events: readonly StoredEvent[]): void {
    for (const subscriber of this.subscribers) subscriber.deliver(events);
  }

  /** Attaches now (before any backfill read), so nothing committed from here on can be missed. */
  subscribe(options: SubscribeOptions): EventSubscription {
    const bufferSize = options.bufferSize ?? this.options.bufferSize ?? DEFAULT_SUBSCRIBER_BUFFER;
    if (!Number.isSafeInteger(options.afterSequence) || options.afterSequence < 0) {
      throw new RangeError(`afterSequence must be a non-negative integer`);
    }
    const subscription = new Subscription({
      afterSequence: options.afterSequence,
      matches: eventPredicate(options.filter),
      bufferSize,
      backfillPageSize: Math.max(
        1,
        Math.min(this.options.backfillPageSize ?? DEFAULT_BACKFILL_PAGE, bufferSize),
      ),
      readAfter: this.options.readAfter,
      detach: (subscriber) => this.subscribers.delete(subscriber),
    });
    this.subscribers.add(subscription);
    return subscription;
  }

  /** Ends every subscription normally (store shutdown). */
  closeAll(): void {
    for (const subscriber of [...this.subscribers]) subscriber.close();
  }
}
