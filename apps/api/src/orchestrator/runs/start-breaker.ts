import type { RunId, ThreadId } from "@skein/domain";

export type StartBreakerOptions = {
  /** Consecutive runs of a thread that fail before starting until the breaker opens. */
  limit: number;
  /** Wait before dispatching the next run after a failed start; doubles per failure. */
  baseDelayMs: number;
  maxDelayMs: number;
};

export const DEFAULT_START_BREAKER: StartBreakerOptions = {
  limit: 3,
  baseDelayMs: 100,
  maxDelayMs: 2_000,
};

type Tripped = { failures: number; cause: string; throughOrdinal: number | null };

/**
 * B1, per thread: runs that fail before their provider turn starts are dispatched with growing
 * pauses, and after `limit` failures in a row the runs already queued behind them fail at once
 * with the same cause instead of each trying (and failing) again. A run queued after the breaker
 * opened still gets a real try (the person may have fixed the cause); a run that starts closes it.
 */
export class StartBreaker {
  private readonly threads = new Map<ThreadId, Tripped>();

  constructor(private readonly options: StartBreakerOptions = DEFAULT_START_BREAKER) {}

  /** Records a failed start; `lastOrdinal` is the newest run ordinal the thread has now. */
  failed(threadId: ThreadId, cause: string, lastOrdinal: number): void {
    const failures = (this.threads.get(threadId)?.failures ?? 0) + 1;
    const open = failures >= this.options.limit;
    this.threads.set(threadId, { failures, cause, throughOrdinal: open ? lastOrdinal : null });
  }

  succeeded(threadId: ThreadId): void {
    this.threads.delete(threadId);
  }

  /** The failure to report instead of trying the run, when the breaker holds it back. */
  refusal(threadId: ThreadId, run: { id: RunId; ordinal: number }): string | null {
    const state = this.threads.get(threadId);
    if (!state || state.throughOrdinal === null || run.ordinal > state.throughOrdinal) return null;
    return (
      `Not started: ${state.failures} runs in a row on this thread failed to start, so the runs ` +
      `queued behind them were not tried. The last failure: ${state.cause}`
    );
  }

  /** How long to wait before dispatching the thread's next run (0 when nothing failed). */
  delayMs(threadId: ThreadId): number {
    const failures = this.threads.get(threadId)?.failures ?? 0;
    if (failures === 0) return 0;
    const delay = this.options.baseDelayMs * 2 ** (failures - 1);
    return Math.min(delay, this.options.maxDelayMs);
  }
}
