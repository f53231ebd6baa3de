import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RefreshScheduler } from "./refresh-scheduler.ts";

describe("refresh scheduler", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("folds a burst of signals into one read", async () => {
    const read = vi.fn(async () => undefined);
    const scheduler = new RefreshScheduler(read, 100);
    for (let i = 0; i < 50; i += 1) scheduler.request();
    await vi.advanceTimersByTimeAsync(100);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it("signals during a read cause exactly one more read after it, never two at once", async () => {
    let running = 0;
    let maxRunning = 0;
    let release: () => void = () => undefined;
    const read = vi.fn(async () => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      running -= 1;
    });
    const scheduler = new RefreshScheduler(read, 10);
    scheduler.request();
    await vi.advanceTimersByTimeAsync(10);
    scheduler.request();
    scheduler.request();
    release();
    await vi.advanceTimersByTimeAsync(10);
    release();
    await vi.advanceTimersByTimeAsync(50);
    expect(read).toHaveBeenCalledTimes(2);
    expect(maxRunning).toBe(1);
  });

  it("retries a failed read with back-off until it succeeds, without a new signal", async () => {
    let calls = 0;
    const read = vi.fn(async () => {
      calls += 1;
      if (calls < 3) throw new Error("offline");
    });
    const scheduler = new RefreshScheduler(read, 100);
    scheduler.request();
    await vi.advanceTimersByTimeAsync(100);
    expect(read).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(450);
    expect(read).toHaveBeenCalledTimes(2);
    scheduler.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(read).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(read).toHaveBeenCalledTimes(3);
  });

  it("does nothing after dispose", async () => {
    const read = vi.fn(async () => undefined);
    const scheduler = new RefreshScheduler(read, 10);
    scheduler.request();
    scheduler.dispose();
    await vi.advanceTimersByTimeAsync(50);
    expect(read).not.toHaveBeenCalled();
  });
});
