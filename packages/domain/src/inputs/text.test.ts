import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AnswersInput, NameText, nameProblem, PathText, textProblem, UserText } from "./text.ts";

describe("B4: text from a person is well-formed Unicode", () => {
  it.each([
    ["a lone high surrogate", "a\ud800b", 1],
    ["a lone low surrogate", "a\udc00b", 1],
    ["a high surrogate at the end", "abc\ud83d", 3],
    ["a reversed pair", "\ude00\ud83d", 0],
  ])("refuses %s, naming where it is", (_name, text, at) => {
    expect(textProblem(text)).toContain(`at position ${at}`);
    expect(UserText.safeParse(text).success).toBe(false);
    expect(NameText.safeParse(text).success).toBe(false);
    expect(PathText.safeParse(text).success).toBe(false);
  });

  it.each([
    ["emoji (a surrogate pair)", "ship it 🚢"],
    ["accents and CJK", "café 日本語"],
    ["a NUL in a message", "a\0b"],
  ])("accepts %s in a message", (_name, text) => {
    expect(textProblem(text)).toBeNull();
    expect(UserText.parse(text)).toBe(text);
  });

  it("refuses NUL in names and paths, not in messages", () => {
    expect(nameProblem("a\0b")).toContain("NUL");
    expect(NameText.safeParse("a\0b").success).toBe(false);
    expect(PathText.safeParse("feature\0x").success).toBe(false);
    expect(UserText.safeParse("a\0b").success).toBe(true);
  });

  it("trims names and bounds them", () => {
    expect(NameText.parse("  Demo  ")).toBe("Demo");
    expect(NameText.safeParse("   ").success).toBe(false);
    expect(NameText.safeParse("x".repeat(201)).success).toBe(false);
  });

  it("checks every answer, alone or in a list", () => {
    expect(AnswersInput.safeParse({ q1: "yes", q2: ["a", "b"] }).success).toBe(true);
    expect(AnswersInput.safeParse({ q1: "y\ud800" }).success).toBe(false);
    expect(AnswersInput.safeParse({ q1: ["ok", "\udfff"] }).success).toBe(false);
    expect(AnswersInput.safeParse({ "q\0": "ok" }).success).toBe(false);
  });

  it("agrees with String.prototype.isWellFormed on any UTF-16 string", () => {
    // Code units drawn near the surrogate range, so lone halves and proper pairs both occur.
    const unit = fc.oneof(
      fc.integer({ min: 0xd800, max: 0xdfff }),
      fc.integer({ min: 0, max: 0xffff }),
    );
    const text = fc.array(unit, { maxLength: 12 }).map((units) => String.fromCharCode(...units));
    fc.assert(
      fc.property(text, (s) => {
        const wellFormed = (s as string & { isWellFormed(): boolean }).isWellFormed();
        expect(textProblem(s) === null).toBe(wellFormed);
        expect(UserText.safeParse(s).success).toBe(wellFormed && s.length > 0);
      }),
      { numRuns: 2000 },
    );
  });
});
