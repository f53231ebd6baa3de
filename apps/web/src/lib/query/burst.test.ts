import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Burst } from "./burst.ts";

describe("burst", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("folds a burst of signals into one run", async () => {
    const task = vi.fn(async () => undefined);
    const burst = new Burst(task, 100);
    for (let i = 0; i < 50; i += 1) burst.request();
    await vi.advanceTimersByTimeAsync(99);
    expect(task).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it("signals during a run cause exactly one more run after it, never two at once", async () => {
    let running = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const task = vi.fn(async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => releases.push(resolve));
      running -= 1;
    });
    const burst = new Burst(task, 10);
    burst.request();
    await vi.advanceTimersByTimeAsync(10);
    expect(task).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 5; i += 1) burst.request();
    releases.shift()?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(task).toHaveBeenCalledTimes(2);
    releases.shift()?.();
    await vi.advanceTimersByTimeAsync(100);
    expect(task).toHaveBeenCalledTimes(2);
    expect(most).toBe(1);
  });

  it("a failed run does not stop later signals from running", async () => {
    const task = vi.fn(async () => {
      throw new Error("down");
    });
    const burst = new Burst(task, 10);
    burst.request();
    await vi.advanceTimersByTimeAsync(10);
    burst.request();
    await vi.advanceTimersByTimeAsync(10);
    expect(task).toHaveBeenCalledTimes(2);
  });

  it("runs nothing once disposed", async () => {
    const task = vi.fn(async () => undefined);
    const burst = new Burst(task, 10);
    burst.request();
    burst.dispose();
    burst.request();
    await vi.advanceTimersByTimeAsync(100);
    expect(task).not.toHaveBeenCalled();
  });
});
