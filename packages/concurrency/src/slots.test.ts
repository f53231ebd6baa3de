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

/** A task the test finishes by hand. */
function held() {
  let finish: (value: string) => void = () => {};
  const promise = new Promise<string>((resolve) => {
    finish = resolve;
  });
  return { promise, finish };
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

  it("runs at most its limit at once and starts the waiting ones in order as others end", async () => {
    const slots = new Slots(2);
    const tasks = [held(), held(), held(), held()];
    const started: number[] = [];
    const results = tasks.map((task, i) =>
      slots.run(() => {
        started.push(i);
        return task.promise;
      }),
    );
    expect(started).toEqual([0, 1]);
    expect(slots.counts().waiting).toBe(2);
    tasks[1]!.finish("b");
    await results[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    tasks[0]!.finish("a");
    tasks[2]!.finish("c");
    tasks[3]!.finish("d");
    expect(await Promise.all(results)).toEqual(["a", "b", "c", "d"]);
    expect(slots.counts().waiting).toBe(0);
  });

  it("failWaiting rejects the waiting tasks without running them; the running one goes on", async () => {
    const slots = new Slots(1);
    const first = held();
    let ran = 0;
    const running = slots.run(() => first.promise);
    const waiting = [1, 2].map(() =>
      slots.run(async () => {
        ran += 1;
        return "never";
      }),
    );
    slots.failWaiting(new Error("the runtime stopped answering"));
    for (const task of waiting) await expect(task).rejects.toThrow("the runtime stopped answering");
    first.finish("done");
    expect(await running).toBe("done");
    expect(ran).toBe(0);
  });

  it("refuses a limit below one", () => {
    expect(() => new Slots(0)).toThrow(RangeError);
  });
});
