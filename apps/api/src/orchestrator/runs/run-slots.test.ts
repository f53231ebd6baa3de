import type { RunId, ThreadId } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { RunSlots } from "./run-slots.ts";

describe("RunSlots (the fan-out concurrency limit)", () => {
  it("starts at most `limit` runs; each settled run starts the next waiting one, in order", async () => {
    const started: string[] = [];
    const finish = new Map<string, () => void>();
    const slots = new RunSlots(
      2,
      (threadId) => started.push(threadId),
      (runId) => new Promise<void>((resolve) => finish.set(runId, resolve)),
    );
    for (const n of [1, 2, 3, 4]) slots.dispatch(`thr_${n}` as ThreadId, `run_${n}` as RunId);
    expect(started).toEqual(["thr_1", "thr_2"]);
    expect(slots.counts()).toEqual({ running: 2, waiting: 2 });
    finish.get("run_2")!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual(["thr_1", "thr_2", "thr_3"]);
    finish.get("run_1")!();
    finish.get("run_3")!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual(["thr_1", "thr_2", "thr_3", "thr_4"]);
    expect(slots.counts()).toEqual({ running: 1, waiting: 0 });
  });

  it("refuses a limit below one", () => {
    expect(
      () =>
        new RunSlots(
          0,
          () => {},
          async () => {},
        ),
    ).toThrow(/≥ 1/);
  });
});
