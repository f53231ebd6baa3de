import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { visibleRange } from "./virtual-window.ts";

describe("virtual window", () => {
  it("renders only the rows in view plus overscan", () => {
    expect(visibleRange(0, 320, 32, 10_000, 8)).toEqual({ start: 0, end: 19 });
    expect(visibleRange(32 * 5_000, 320, 32, 10_000, 8)).toEqual({ start: 4_992, end: 5_019 });
    expect(visibleRange(32 * 10_000, 320, 32, 10_000, 8)).toEqual({ start: 9_991, end: 10_000 });
    expect(visibleRange(0, 320, 32, 0)).toEqual({ start: 0, end: 0 });
  });

  it("property: the range stays inside the list and covers the viewport", () => {
    fc.assert(
      fc.property(
        fc.nat(400_000),
        fc.integer({ min: 1, max: 2_000 }),
        fc.integer({ min: 1, max: 12_000 }),
        (scrollTop, height, count) => {
          const rowHeight = 32;
          const { start, end } = visibleRange(scrollTop, height, rowHeight, count);
          expect(start).toBeGreaterThanOrEqual(0);
          expect(end).toBeLessThanOrEqual(count);
          expect(end - start).toBeLessThanOrEqual(Math.ceil(height / rowHeight) + 1 + 16);
          const firstVisible = Math.min(count - 1, Math.floor(scrollTop / rowHeight));
          expect(start).toBeLessThanOrEqual(firstVisible);
        },
      ),
    );
  });
});
