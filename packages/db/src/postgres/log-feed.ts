import type { StoredEvent } from "../event-store.ts";

export type LogFeedOptions = {
  /** Committed events after a sequence, in order (the database: the source of truth). */
  readAfter: (afterSequence: number, limit: number) => Promise<StoredEvent[]>;
  /** Hands events to the in-process bus; called in strictly increasing sequence order. */
  publish: (events: StoredEvent[]) => void;
  /** Highest sequence already accounted for when the feed starts. */
  cursor: number;
  pageSize?: number;
  /** Reports a failed read; the next signal or poll retries from the same cursor. */
  onError?: (error: unknown) => void;
};

/**
 * Feeds the in-process bus from the database so that events committed by any instance reach this
 * instance's subscribers, each exactly once and in order. `cursor` is the last sequence published.
 *
 * - This instance's own commits are published directly when they continue the cursor (the common
 *   single-instance case: no extra read, same latency as SQLite).
 * - Anything else — a NOTIFY from another instance, a periodic poll, a commit that leaves a gap
 *   because another instance committed in between — triggers `catchUp()`, which reads
 *   `events after cursor` page by page. A lost or late notification therefore only delays
 *   delivery until the next signal or poll; it never loses an event, since the log is read, not
 *   the notification payload.
 *
 * Because visible events always form a dense prefix of the log (pg-writer.ts), everything read
 * after `cursor` continues it without gaps; overlap with a direct publish is dropped by sequence.
 */
export class LogFeed {
  private cursorValue: number;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly pageSize: number;

  constructor(private readonly options: LogFeedOptions) {
    this.cursorValue = options.cursor;
    this.pageSize = options.pageSize ?? 1_000;
  }

  get cursor(): number {
    return this.cursorValue;
  }

  /** This instance's committed batch: published now if it continues the cursor, else read. */
  async committed(events: readonly StoredEvent[]): Promise<void> {
    const first = events[0];
    const last = events.at(-1);
    if (first === undefined || last === undefined || last.sequence <= this.cursorValue) return;
    if (first.sequence === this.cursorValue + 1) {
      this.publish(events);
      return;
    }
    // Another instance committed in between: read the gap (and these events) from the log so
    // order holds. Appends resolve after this, so local subscribers have them by then.
    await this.catchUp();
  }

  /** A NOTIFY payload (the notifying commit's last sequence) or null for "something may be new". */
  signal(lastSequence: number | null): void {
    if (lastSequence !== null && lastSequence <= this.cursorValue) return;
    void this.catchUp();
  }

  /**
   * Reads and publishes everything committed after the cursor. Single flight: a call made while a
   * read runs makes that run go round once more, so every caller's request is served by a read
   * that started after it asked.
   */
  catchUp(): Promise<void> {
    if (this.running !== null) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.readToHead();
        } while (this.again && !this.stopped);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Stops reading; resolves when a read in progress has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async readToHead(): Promise<void> {
    while (!this.stopped) {
      let page: StoredEvent[];
      try {
        page = await this.options.readAfter(this.cursorValue, this.pageSize);
      } catch (error) {
        if (!this.stopped) this.options.onError?.(error);
        return;
      }
      if (this.stopped) return;
      this.publish(page);
      if (page.length < this.pageSize) return;
    }
  }

  private publish(events: readonly StoredEvent[]): void {
    let fresh: StoredEvent[] = [];
    for (const [index, event] of events.entries()) {
      if (event.sequence > this.cursorValue) {
        fresh = events.slice(index);
        break;
      }
    }
    const last = fresh.at(-1);
    if (last === undefined) return;
    this.cursorValue = last.sequence;
    this.options.publish(fresh);
  }
}
