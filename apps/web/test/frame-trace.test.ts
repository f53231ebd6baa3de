import { describe, expect, it } from "vitest";
import { frameTimes, percentile, type TraceEvent } from "./support/frame-trace.ts";

const meta = (pid: number, tid: number, name: string): TraceEvent => ({
  name: "thread_name",
  ph: "M",
  pid,
  tid,
  ts: 0,
  args: { name },
});
const frame = (ts: number, pid = 1, tid = 1): TraceEvent => ({
  name: "FireAnimationFrame",
  ph: "X",
  pid,
  tid,
  ts,
  dur: 10,
});
const task = (ts: number, dur: number, pid = 1, tid = 1): TraceEvent => ({
  name: "RunTask",
  ph: "X",
  pid,
  tid,
  ts,
  dur,
});

describe("frame times from a Chromium trace", () => {
  it("sums the main thread's task time per frame interval, nested tasks once", () => {
    const events = [
      meta(1, 1, "CrRendererMain"),
      meta(2, 7, "CrRendererMain"),
      frame(0),
      task(1_000, 4_000),
      task(2_000, 1_000), // nested in the previous task
      frame(16_000),
      task(15_000, 3_000), // straddles the boundary: 1 ms before, 2 ms after
      task(20_000, 10_000),
      frame(32_000),
      // another renderer's main thread, with fewer frames: ignored
      frame(0, 2, 7),
      task(0, 50_000, 2, 7),
    ];
    expect(frameTimes(events)).toEqual([5, 12]);
  });

  it("is empty without a renderer main thread", () => {
    expect(frameTimes([frame(0), frame(16_000)])).toEqual([]);
  });

  it("takes the nearest-rank percentile", () => {
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([3, 1, 2], 50)).toBe(2);
    expect(percentile([], 95)).toBe(0);
  });
});
