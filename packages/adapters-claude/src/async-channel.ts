/**
 * An unbounded single-consumer queue that is also an async iterable. It feeds user messages into a
 * long-lived streaming-input `query()` and carries each turn's messages to its reader.
 */
export class AsyncChannel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiter: (() => void) | null = null;
  private closed = false;

  get isClosed(): boolean {
    return this.closed;
  }

  push(item: T): void {
    if (this.closed) throw new Error("AsyncChannel: push after close");
    this.items.push(item);
    this.wake();
  }

  /** Ends the stream once the buffered items are read. Idempotent. */
  close(): void {
    this.closed = true;
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    while (true) {
      if (this.items.length > 0) {
        yield this.items.shift() as T;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
      });
    }
  }
}
