import { describe, expect, it } from "vitest";
import { highestSiblingOf, siblingNumber } from "../src/sibling-number.ts";

describe("sibling numbers of fork titles (B16)", () => {
  const stem = "fork of Main at run 3";

  it("B16: the stem is 1, a numbered sibling its number, anything else none", () => {
    expect(siblingNumber(stem, stem)).toBe(1);
    expect(siblingNumber(`${stem} (12)`, stem)).toBe(12);
    expect(siblingNumber(`${stem} (007)`, stem)).toBe(7);
    for (const other of [
      `${stem} ()`,
      `${stem} (1a)`,
      `${stem} (12) x`,
      `${stem}(2)`,
      `${stem} (1234567890)`,
      `${stem}0 (2)`,
      "fork of main at run 3 (2)",
    ])
      expect(siblingNumber(other, stem), other).toBeNull();
  });

  it("B16: the highest of a list, 0 for none", () => {
    expect(highestSiblingOf([`${stem} (2)`, `${stem} (10)`, stem, "x"], stem)).toBe(10);
    expect(highestSiblingOf(["x", `${stem}x`], stem)).toBe(0);
  });
});
