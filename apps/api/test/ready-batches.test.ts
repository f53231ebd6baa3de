import { describe, expect, it } from "vitest";
import { readyBatches } from "../src/subscriptions/ready-batches.ts";

/** A push-fed async iterator, like the store's subscription: next() resolves at once when queued. */
function feed<T>() {
  const queue: T[] = [];
  let waiter: ((result: IteratorResult<T>) => void) | null = null;
  let failWaiter: ((error: unknown) => void) | null = null;
  let ended = false;
  let failure: unknown = null;
  const iterator: AsyncIterator<T> = {
    next() {
      if (failure !== null) return Promise.reject(failure);
      const item = queue.shift();
      if (item !== undefined) return Promise.resolve({ done: false, value: item });
      if (ended) return Promise.resolve({ done: true, value: undefined });
      return new Promise((resolve, reject) => {
        waiter = resolve;
        failWaiter = reject;
      });
    },
  };
  return {
    iterator,
    push(...items: T[]) {
      for (const item of items) {
        if (waiter) {
          const wake = waiter;
          waiter = null;
          wake({ done: false, value: item });
        } else queue.push(item);
      }
    },
    end() {
      ended = true;
      waiter?.({ done: true, value: undefined });
    },
    fail(error: unknown) {
      failure = error;
      failWaiter?.(error);
    },
  };
}

describe("readyBatches", () => {
  it("batches what is already queued, up to the limit, in order", async () => {
    const source = feed<number>();
    source.push(1, 2, 3, 4, 5);
    const batches = readyBatches(source.iterator, { maxBatch: 2 });
    expect((await batches.next()).value).toEqual([1, 2]);
    expect((await batches.next()).value).toEqual([3, 4]);
    expect((await batches.next()).value).toEqual([5]);
    const waiting = batches.next();
    source.push(6);
    expect((await waiting).value).toEqual([6]);
    source.end();
    expect((await batches.next()).done).toBe(true);
  });

  it("a consumer that keeps up gets every item at once, alone", async () => {
    const source = feed<number>();
    const batches = readyBatches(source.iterator, { maxBatch: 100 });
    for (let i = 0; i < 5; i += 1) {
      const next = batches.next();
      source.push(i);
      expect((await next).value).toEqual([i]);
    }
  });

  it("a failure while a read is parked surfaces on the next pull, not as an unhandled rejection", async () => {
    const source = feed<number>();
    source.push(1);
    const batches = readyBatches(source.iterator, { maxBatch: 10 });
    expect((await batches.next()).value).toEqual([1]);
    source.fail(new Error("overflow"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(batches.next()).rejects.toThrow("overflow");
  });
});
