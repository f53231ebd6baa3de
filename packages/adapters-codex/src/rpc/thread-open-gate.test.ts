import { describe, expect, it } from "vitest";
import { ThreadOpenGate } from "./thread-open-gate.ts";

/** A task the test finishes by hand. */
function held() {
  let finish: (value: string) => void = () => {};
  const promise = new Promise<string>((resolve) => {
    finish = resolve;
  });
  return { promise, finish };
}

describe("ThreadOpenGate", () => {
  it("runs at most its limit at once and starts the waiting ones in order as others end", async () => {
    const gate = new ThreadOpenGate(2);
    const tasks = [held(), held(), held(), held()];
    const started: number[] = [];
    const results = tasks.map((task, i) =>
      gate.run(() => {
        started.push(i);
        return task.promise;
      }),
    );
    expect(started).toEqual([0, 1]);
    expect(gate.waiting).toBe(2);
    tasks[1]!.finish("b");
    await results[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    tasks[0]!.finish("a");
    tasks[2]!.finish("c");
    tasks[3]!.finish("d");
    expect(await Promise.all(results)).toEqual(["a", "b", "c", "d"]);
    expect(gate.waiting).toBe(0);
  });

  it("failWaiting rejects the waiting tasks without running them; the running one goes on", async () => {
    const gate = new ThreadOpenGate(1);
    const first = held();
    let ran = 0;
    const running = gate.run(() => first.promise);
    const waiting = [1, 2].map(() =>
      gate.run(async () => {
        ran += 1;
        return "never";
      }),
    );
    gate.failWaiting(new Error("the runtime stopped answering"));
    for (const task of waiting) await expect(task).rejects.toThrow("the runtime stopped answering");
    first.finish("done");
    expect(await running).toBe("done");
    expect(ran).toBe(0);
  });
});
