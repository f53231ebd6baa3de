import type { RunId, ThreadId } from "@skein/domain";

/**
 * B9: at most `limit` fan-out runs at a time in this process. A run past the limit stays queued
 * (recorded, not dispatched) until a running one settles. After a restart, recovery dispatches
 * every queued run at once: the limit paces a fan-out, it does not survive the process.
 */
export class RunSlots {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly limit: number,
    private readonly kick: (threadId: ThreadId) => void,
    private readonly settled: (runId: RunId) => Promise<void>,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error("the fan-out limit must be ≥ 1");
  }

  dispatch(threadId: ThreadId, runId: RunId): void {
    const start = () => {
      this.active += 1;
      this.kick(threadId);
      void this.settled(runId)
        .catch(() => undefined)
        .finally(() => {
          this.active -= 1;
          this.waiting.shift()?.();
        });
    };
    if (this.active < this.limit) start();
    else this.waiting.push(start);
  }

  /** Runs dispatched and not yet settled, and runs waiting for a slot (tests, metrics). */
  counts(): { running: number; waiting: number } {
    return { running: this.active, waiting: this.waiting.length };
  }
}
