const NOT_READY = Symbol("not ready");
const notReady = Promise.resolve(NOT_READY);

/**
 * Waits end on a shared grid of this many ms, one timer per grid point for every waiting
 * consumer: subscribers of a stream that keep up then flush together and form identical batches,
 * which the SSE writer serializes once and hands to all of them as the same bytes.
 */
const TICK_MS = 4;
const ticks = new Map<number, Promise<void>>();

function sharedDelay(ms: number): Promise<void> {
  const due = Math.ceil((performance.now() + ms) / TICK_MS) * TICK_MS;
  let tick = ticks.get(due);
  if (tick === undefined) {
    tick = new Promise<void>((resolve) => {
      setTimeout(
        () => {
          ticks.delete(due);
          resolve();
        },
        Math.max(0, due - performance.now()),
      );
    });
    ticks.set(due, tick);
  }
  return tick;
}

export type ReadyBatchOptions = {
  maxBatch: number;
  /**
   * Batches are at least this far apart: an item arriving sooner after the previous batch waits
   * out the rest of the interval, collecting whatever else arrives meanwhile. Items arriving
   * after a quiet spell go out at once, so this only costs latency under sustained load.
   */
  minIntervalMs?: number;
};

/**
 * Groups what an async iterator already has on hand: each batch starts with the next item
 * (waiting for it if needed) and adds every further item that is available without waiting, up
 * to `maxBatch`. A consumer that keeps up gets items as they come; one that falls behind gets
 * fewer, larger batches instead of a backlog of small messages.
 */
export async function* readyBatches<T>(
  source: AsyncIterator<T>,
  options: ReadyBatchOptions,
): AsyncGenerator<T[], void, unknown> {
  const { maxBatch, minIntervalMs = 0 } = options;
  let pending: Promise<IteratorResult<T>> | null = null;
  let lastBatchAt = Number.NEGATIVE_INFINITY;
  for (;;) {
    const first: IteratorResult<T> = await (pending ?? source.next());
    pending = null;
    if (first.done) return;
    const wait = lastBatchAt + minIntervalMs - performance.now();
    if (wait > 0) await sharedDelay(wait);
    const batch = [first.value];
    while (batch.length < maxBatch) {
      const next = source.next();
      // An already settled `next` wins the race (its reaction was queued first).
      const ready = await Promise.race([next, notReady]);
      if (ready === NOT_READY) {
        // It may still reject (e.g. overflow) while we are suspended at `yield`; the rejection
        // is observed when it is awaited above, not reported as unhandled meanwhile.
        next.catch(() => undefined);
        pending = next;
        break;
      }
      if (ready.done) {
        yield batch;
        return;
      }
      batch.push(ready.value);
    }
    lastBatchAt = performance.now();
    yield batch;
  }
}
