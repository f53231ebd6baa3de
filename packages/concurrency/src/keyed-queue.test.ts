import { describe, expect, it } from "vitest";
import { KeyedQueue } from "./keyed-queue.ts";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("KeyedQueue", () => {
  it("runs one key's tasks one at a time, in order, and other keys alongside", async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const task = (name: string) => async () => {
      running += 1;
      most = Math.max(most, running);
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      running -= 1;
      return name;
    };
    const same = await Promise.all([queue.run("a", task("a1")), queue.run("a", task("a2"))]);
    expect(same).toEqual(["a1", "a2"]);
    expect(log).toEqual(["start a1", "end a1", "start a2", "end a2"]);
    expect(most).toBe(1);

    most = 0;
    await Promise.all([queue.run("a", task("a3")), queue.run("b", task("b1"))]);
    expect(most).toBe(2);
  });

  it("goes on after a failed task and forgets idle keys", async () => {
    const queue = new KeyedQueue();
    const failed = queue.run("a", async () => {
      throw new Error("boom");
    });
    const after = queue.run("a", async () => "next");
    await expect(failed).rejects.toThrow("boom");
    await expect(after).resolves.toBe("next");
    await tick();
    expect(queue.busyKeys).toBe(0);
  });
});
