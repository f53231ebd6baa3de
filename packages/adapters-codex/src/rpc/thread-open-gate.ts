/**
 * Runs at most `limit` tasks at once; the others wait in order. Codex answers thread starts one
 * after another, each slower the more threads the runtime holds (measured: ~10 ms at first,
 * ~0.5 s past 100 loaded threads), so 200 sent at once left the last ones past their 60 s
 * timeout. Held here instead, each request's timeout measures the runtime answering it.
 */
export class ThreadOpenGate {
  private running = 0;
  private readonly queue: { start: () => void; fail: (error: Error) => void }[] = [];

  constructor(private readonly limit: number) {}

  /** Tasks waiting for their turn (not yet sent). */
  get waiting(): number {
    return this.queue.length;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running += 1;
        task()
          .then(resolve, reject)
          .finally(() => {
            this.running -= 1;
            this.queue.shift()?.start();
          });
      };
      if (this.running < this.limit) start();
      else this.queue.push({ start, fail: reject });
    });
  }

  /** Rejects every waiting task (the runtime stopped answering): none is sent. */
  failWaiting(error: Error): void {
    for (const waiter of this.queue.splice(0)) waiter.fail(error);
  }
}
