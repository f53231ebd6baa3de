import { describe, expect, it } from "vitest";
import { Slots } from "./slots.ts";

/** A task the test ends when it wants, recording when it started. */
function controlled(started: string[], name: string) {
  let end: (fail?: boolean) => void = () => undefined;
  const task = () =>
    new Promise<string>((resolve, reject) => {
      started.push(name);
      end = (fail) => (fail ? reject(new Error(name)) : resolve(name));
    });
  return { task, end: (fail?: boolean) => end(fail) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("Slots", () => {
  it("runs at most `limit` tasks at once; each ended one (finished or failed) starts the next, in order", async () => {
    const slots = new Slots(2);
    const started: string[] = [];
    const tasks = ["a", "b", "c", "d"].map((name) => controlled(started, name));
    const results = tasks.map((t) =>
      slots.run(t.task).catch((error: Error) => `failed ${error.message}`),
    );
    await settle();
    expect(started).toEqual(["a", "b"]);
    expect(slots.counts()).toEqual({ running: 2, waiting: 2 });
    tasks[1]?.end(true);
    await settle();
    expect(started).toEqual(["a", "b", "c"]);
    tasks[0]?.end();
    await settle();
    expect(started).toEqual(["a", "b", "c", "d"]);
    tasks[2]?.end();
    tasks[3]?.end();
    expect(await Promise.all(results)).toEqual(["a", "failed b", "c", "d"]);
    expect(slots.counts()).toEqual({ running: 0, waiting: 0 });
  });

  it("refuses a limit below one", () => {
    expect(() => new Slots(0)).toThrow(RangeError);
  });
});
