import { describe, expect, test } from "vitest";
import { AsyncQueue } from "./async-queue.ts";

describe("AsyncQueue", () => {
  test("delivers buffered and later values in order, then ends", async () => {
    const queue = new AsyncQueue<number>();
    queue.push(1);
    const seen: number[] = [];
    const consumer = (async () => {
      for await (const value of queue) seen.push(value);
    })();
    queue.push(2);
    queue.push(3);
    queue.end();
    queue.push(4);
    await consumer;
    expect(seen).toEqual([1, 2, 3]);
  });

  test("an error end is thrown to a waiting consumer after buffered values", async () => {
    const queue = new AsyncQueue<string>();
    queue.push("a");
    queue.end(new Error("boom"));
    const seen: string[] = [];
    await expect(async () => {
      for await (const value of queue) seen.push(value);
    }).rejects.toThrow("boom");
    expect(seen).toEqual(["a"]);
  });

  test("a reader waiting for values is woken by each push", async () => {
    const queue = new AsyncQueue<number>();
    const read = (async () => {
      const seen: number[] = [];
      for await (const value of queue) seen.push(value);
      return seen;
    })();
    await Promise.resolve();
    queue.push(1);
    setTimeout(() => {
      queue.push(2);
      queue.end();
    }, 5);
    expect(await read).toEqual([1, 2]);
  });

  test("a consumer that stops early ends the queue", async () => {
    const queue = new AsyncQueue<number>();
    queue.push(1);
    queue.push(2);
    for await (const value of queue) {
      expect(value).toBe(1);
      break;
    }
    expect(queue.isEnded).toBe(true);
  });
});
