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
});
