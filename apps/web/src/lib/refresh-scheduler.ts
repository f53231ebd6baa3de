/**
 * Coalesces "something changed, re-read it" signals into few reads: the first signal reads after
 * `delayMs`, signals during that wait or during the read itself cause exactly one more read once
 * it finishes. A read is never run concurrently with another, so results land in order; a
 * streaming reply (many events per second) becomes a steady few reads per second.
 *
 * A failed read is retried with back-off until one succeeds: the change it was meant to show
 * has already been delivered as an event, and no later event may come to trigger another read
 * (a tab whose event stream survived a network drop but whose re-reads did not).
 */
export class RefreshScheduler {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private dirty = false;
  private disposed = false;
  private failures = 0;

  constructor(
    private readonly read: () => Promise<void>,
    private readonly delayMs: number,
    private readonly maxRetryMs = 10_000,
  ) {}

  request(): void {
    this.schedule(this.delayMs);
  }

  /** Read as soon as possible, e.g. when the network comes back during a retry back-off. */
  kick(): void {
    if (this.disposed || this.running) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.schedule(0);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(delay: number): void {
    if (this.disposed) return;
    if (this.running) {
      this.dirty = true;
      return;
    }
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run();
    }, delay);
  }

  private async run(): Promise<void> {
    this.running = true;
    this.dirty = false;
    let failed = false;
    try {
      await this.read();
      this.failures = 0;
    } catch {
      failed = true;
      this.failures += 1;
    } finally {
      this.running = false;
    }
    if (failed) {
      const backoff = Math.min(this.maxRetryMs, this.delayMs * 2 ** this.failures + 250);
      this.schedule(backoff);
    } else if (this.dirty) {
      this.request();
    }
  }
}
