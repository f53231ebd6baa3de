/**
 * Lets the sidebar's background paging wait for the person's search (issue 29: pages asked
 * meanwhile queued at the server ahead of it). The wait is bounded: a search that never answers
 * (a stalled request has no timeout of its own) would otherwise stop the paging for good.
 *
 * Only the latest search holds the wait: one replaced by a newer search releases it when the
 * newer one settles, whatever became of the older one. A wait lasts `maxWaitMs` at most.
 */
export class SearchGate {
  #latest = 0;
  #inFlight = false;
  readonly #waiters = new Set<() => void>();
  readonly #maxWaitMs: number;

  constructor(maxWaitMs: number) {
    this.#maxWaitMs = maxWaitMs;
  }

  /** A search was asked; `answer` settles with its answer (or its failure). */
  begin(answer: Promise<unknown>): void {
    const search = ++this.#latest;
    this.#inFlight = true;
    const settle = () => {
      if (search !== this.#latest) return;
      this.#inFlight = false;
      for (const release of [...this.#waiters]) release();
    };
    answer.then(settle, settle);
  }

  /** Resolves once no search is in flight, or after `maxWaitMs`, whichever comes first. */
  idle(): Promise<void> {
    if (!this.#inFlight) return Promise.resolve();
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timer);
        this.#waiters.delete(release);
        resolve();
      };
      const timer = setTimeout(release, this.#maxWaitMs);
      this.#waiters.add(release);
    });
  }
}
