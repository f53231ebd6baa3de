import { describe, expect, it } from "vitest";
import { formatRanges, span, toRanges } from "./ordinal-ranges.ts";

describe("ordinal ranges", () => {
  it("compresses unsorted ordinals with duplicates into maximal ranges", () => {
    expect(toRanges([9, 1, 2, 3, 3, 5, 4, 7])).toEqual([
      { from: 1, to: 5 },
      { from: 7, to: 7 },
      { from: 9, to: 9 },
    ]);
    expect(toRanges([])).toEqual([]);
  });

  it("formats ranges and caps long lists", () => {
    expect(formatRanges(toRanges([1, 2, 3, 5, 7, 8]))).toBe("1–3, 5, 7–8");
    expect(formatRanges(toRanges([1, 3, 5, 7]), 2)).toBe("1, 3 (+2 more ranges)");
    expect(formatRanges([])).toBe("none");
  });

  it("spans the smallest and largest ordinal", () => {
    expect(span([4, 2, 9])).toEqual({ from: 2, to: 9 });
    expect(span([])).toBeNull();
  });
});
