/**
 * Runs tasks one at a time per key, in the order they were given, while different keys proceed in
 * parallel. A failed task does not stop the ones queued after it. Keys are forgotten once idle, so
 * the map holds only keys with work in flight.
 *
 * Used for commands on one stream (they must not race for the same expected version) and for git
 * worktree changes of one repository (git's worktree bookkeeping is not safe under concurrency).
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }

  /** Keys with work queued or running (for tests and metrics). */
  get busyKeys(): number {
    return this.tails.size;
  }
}
