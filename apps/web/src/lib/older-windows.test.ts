import { describe, expect, it } from "vitest";
import { withOlderWindow } from "./older-windows.ts";
import type { ThreadDetail } from "./types.ts";

/** A window of runs `from..to`; its `before` cursor names the run before it (null at run 1). */
function page(from: number, to: number): ThreadDetail {
  return {
    window: {
      fromRunOrdinal: from,
      toRunOrdinal: to,
      runCount: 10_000,
      before: from > 1 ? `r${from}` : null,
      after: `r${to}`,
    },
  } as ThreadDetail;
}

const ordinals = (pages: readonly ThreadDetail[]) =>
  pages.map((p) => [p.window.fromRunOrdinal, p.window.toRunOrdinal]);

describe("older windows (B7)", () => {
  it("B7: the window right above the live one, then the one above it, join in order", () => {
    const live = page(9951, 10_000);
    const first = withOlderWindow([], page(9901, 9950), "r9951", live.window.before);
    const second = withOlderWindow(first, page(9851, 9900), "r9901", live.window.before);
    expect(ordinals(second)).toEqual([
      [9851, 9900],
      [9901, 9950],
    ]);
  });

  it("B7: a second answer for a window already shown (asked again before the render) is dropped", () => {
    const live = page(9951, 10_000);
    const once = withOlderWindow([], page(9901, 9950), "r9951", live.window.before);
    const again = withOlderWindow(once, page(9901, 9950), "r9951", live.window.before);
    expect(again).toBe(once);
    expect(ordinals(again)).toEqual([[9901, 9950]]);
  });

  it("B7: an answer asked from a live window that has since moved on is dropped", () => {
    const moved = page(9961, 10_010);
    const pages = withOlderWindow([], page(9901, 9950), "r9951", moved.window.before);
    expect(pages).toEqual([]);
  });
});
