import { SubscriberOverflow } from "../errors.ts";
import type { EventSubscription, StoredEvent } from "../event-store.ts";
import type { EventPredicate } from "./event-filter.ts";
import { EventQueue } from "./event-queue.ts";

export type ReadAfter = (afterSequence: number, limit: number) => Promise<StoredEvent[]>;

export type SubscriptionOptions = {
  afterSequence: number;
  matches: EventPredicate;
  bufferSize: number;
  backfillPageSize: number;
  readAfter: ReadAfter;
  detach: (subscription: Subscription) => void;
};

/**
 * One subscriber. It is attached to the live feed when constructed; live events wait in `held`
 * while the backfill reads the store page by page (on demand, so a slow consumer pulls the
 * backlog at its own pace). A short page means the store has caught up: `held` is merged and from
 * then on `cursor` — the highest sequence seen from either source — drops the overlap at the seam.
 * Both `held` and the live queue are bounded by `bufferSize`; past it the subscriber is cut off
 * with SubscriberOverflow rather than slowing the publisher.
 */
export class Subscription implements EventSubscription, AsyncIterator<StoredEvent> {
  private readonly queue = new EventQueue<StoredEvent>();
  /** Live events that arrived while backfilling; merged when the backfill ends. */
  private held: StoredEvent[] = [];
  private backfilling = true;
  private cursor: number;
  private lastDelivered: number;
  private closed = false;
  private failure: SubscriberOverflow | null = null;
  private wake: (() => void) | null = null;
  private turn: Promise<unknown> = Promise.resolve();
  private inFlight = 0;

  constructor(private readonly options: SubscriptionOptions) {
    this.cursor = options.afterSequence;
    this.lastDelivered = options.afterSequence;
  }

  /** Events given to this subscriber and not yet taken by its consumer (its lag, in events). */
  get backlog(): number {
    return this.queue.length + this.held.length;
  }

  [Symbol.asyncIterator](): AsyncIterator<StoredEvent> {
    return this;
  }

  /** Called by the bus with each committed batch, in sequence order. */
  deliver(events: readonly StoredEvent[]): void {
    if (this.closed || this.failure !== null) return;
    if (this.backfilling) {
      for (const event of events) if (this.options.matches(event)) this.held.push(event);
      if (this.held.length > this.options.bufferSize) this.overflow();
      return;
    }
    for (const event of events) {
      if (event.sequence <= this.cursor) continue;
      this.cursor = event.sequence;
      if (this.options.matches(event)) this.queue.push(event);
    }
    if (this.queue.length > this.options.bufferSize) this.overflow();
    this.signal();
  }

  next(): Promise<IteratorResult<StoredEvent>> {
    if (this.inFlight === 0 && this.failure === null) {
      // Fast path for a consumer keeping up: no promise chain per event.
      const event = this.queue.shift();
      if (event !== undefined) {
        this.lastDelivered = event.sequence;
        return Promise.resolve({ done: false, value: event });
      }
    }
    // Serialized, so overlapping next() calls cannot race for the same event or backfill page.
    this.inFlight += 1;
    const result = this.turn.then(() => this.step());
    this.turn = result.then(
      () => {
        this.inFlight -= 1;
      },
      () => {
        this.inFlight -= 1;
      },
    );
    return result;
  }

  async return(): Promise<IteratorResult<StoredEvent>> {
    this.close();
    return { done: true, value: undefined };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.options.detach(this);
    this.queue.clear();
    this.held = [];
    this.signal();
  }

  private async step(): Promise<IteratorResult<StoredEvent>> {
    for (;;) {
      if (this.failure !== null) throw this.failure;
      if (this.closed) return { done: true, value: undefined };
      const event = this.queue.shift();
      if (event !== undefined) {
        this.lastDelivered = event.sequence;
        return { done: false, value: event };
      }
      if (this.backfilling) {
        await this.backfillPage();
      } else {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
      }
    }
  }

  private async backfillPage(): Promise<void> {
    let page: StoredEvent[];
    try {
      page = await this.options.readAfter(this.cursor, this.options.backfillPageSize);
    } catch (error) {
      // A read cut short by close() (e.g. store shutdown) ends the iteration normally.
      if (this.closed) return;
      throw error;
    }
    if (this.closed || this.failure !== null) return;
    for (const event of page) {
      if (event.sequence <= this.cursor) continue;
      this.cursor = event.sequence;
      if (this.options.matches(event)) this.queue.push(event);
    }
    if (page.length >= this.options.backfillPageSize) return;
    // Caught up: everything committed after the attach is in `held`.
    this.backfilling = false;
    for (const event of this.held) {
      if (event.sequence <= this.cursor) continue;
      this.cursor = event.sequence;
      this.queue.push(event);
    }
    this.held = [];
  }

  private overflow(): void {
    this.failure = new SubscriberOverflow(this.options.bufferSize, this.lastDelivered);
    this.options.detach(this);
    this.queue.clear();
    this.held = [];
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
