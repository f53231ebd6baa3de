import { describe, expect, it } from "vitest";
import { AsyncChannel } from "./async-channel.ts";

describe("AsyncChannel", () => {
  it("delivers items pushed before and after the reader waits, then ends on close", async () => {
    const channel = new AsyncChannel<number>();
    channel.push(1);
    const read = (async () => {
      const seen: number[] = [];
      for await (const item of channel) seen.push(item);
      return seen;
    })();
    await Promise.resolve();
    channel.push(2);
    setTimeout(() => {
      channel.push(3);
      channel.close();
    }, 5);
    expect(await read).toEqual([1, 2, 3]);
    expect(() => channel.push(4)).toThrow(/after close/);
  });
});
