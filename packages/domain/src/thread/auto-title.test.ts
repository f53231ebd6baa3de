import { describe, expect, it } from "vitest";
import { autoTitle } from "./auto-title.ts";

describe("auto titles from a first message", () => {
  it("take the first non-empty line with its whitespace folded", () => {
    expect(autoTitle("\n\n  Fix   the login\tbug \nthen run the tests")).toBe("Fix the login bug");
  });

  it("cut a long line at a word, with an ellipsis", () => {
    const title = autoTitle(`Refactor ${"module ".repeat(20)}`)!;
    expect(title.length).toBeLessThanOrEqual(61);
    expect(title.endsWith("module…")).toBe(true);
  });

  it("cut a long word where it must", () => {
    expect(autoTitle("x".repeat(100))).toBe(`${"x".repeat(60)}…`);
  });

  it("give none for a message without words", () => {
    expect(autoTitle(" \n \t")).toBeNull();
  });
});
