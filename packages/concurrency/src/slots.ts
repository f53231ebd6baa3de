/**
 * At most `limit` tasks at a time; the rest wait in the order they came. A failed task frees its
 * slot like a finished one.
 *
 * Used for the git processes Skein starts (packages/checkpoints): starting a process blocks the
 * server's event loop for the fork (milliseconds for a large server process), so dozens started
 * in one burst (every run of a busy server capturing its checkpoint at once) held every request
 * for seconds. Taken one slot at a time, the starts interleave with the requests.
 */
export class Slots {
  private active = 0;
  private readonly waiting: Array<{ start: () => void; fail: (error: Error) => void }> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError("the limit must be ≥ 1");
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active += 1;
    else {
      await new Promise<void>((start, fail) => this.waiting.push({ start, fail }));
    }
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter (active stays the same), or is freed.
      const next = this.waiting.shift();
      if (next) next.start();
      else this.active -= 1;
    }
  }

  /**
   * Rejects every waiting task with `error` without running it; running ones go on. For work
   * whose target stopped answering (a runtime that timed out): those queued behind would too.
   */
  failWaiting(error: Error): void {
    for (const waiter of this.waiting.splice(0)) waiter.fail(error);
  }

  /** Tasks running and waiting now (tests, metrics). */
  counts(): { running: number; waiting: number } {
    return { running: this.active, waiting: this.waiting.length };
  }
}
