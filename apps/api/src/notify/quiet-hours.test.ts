import { describe, expect, it } from "vitest";
import { MinuteBudget } from "./minute-budget.ts";
import { isQuiet } from "./quiet-hours.ts";

describe("isQuiet (B20)", () => {
  const night = { from: "22:00", to: "07:00", timeZone: "Europe/Berlin" };
  it("reads the wall clock of the person's time zone, across midnight", () => {
    expect(isQuiet(night, new Date("2026-12-06T21:00:00Z"))).toBe(true); // 22:00 Berlin
    expect(isQuiet(night, new Date("2026-12-06T05:59:00Z"))).toBe(true); // 06:59 Berlin
    expect(isQuiet(night, new Date("2026-12-06T06:00:00Z"))).toBe(false); // 07:00 Berlin
    expect(isQuiet(night, new Date("2026-12-06T20:59:00Z"))).toBe(false); // 21:59 Berlin
  });
  it("a span within one day, and none at all", () => {
    const lunch = { from: "12:00", to: "13:00", timeZone: "UTC" };
    expect(isQuiet(lunch, new Date("2026-12-06T12:30:00Z"))).toBe(true);
    expect(isQuiet(lunch, new Date("2026-12-06T13:00:00Z"))).toBe(false);
    expect(isQuiet(null, new Date("2026-12-06T12:30:00Z"))).toBe(false);
  });
});

describe("MinuteBudget (B20)", () => {
  it("allows `perMinute` sends per target in any sliding minute", () => {
    const budget = new MinuteBudget(2);
    expect([0, 1, 2].map((at) => budget.take("a", at))).toEqual([true, true, false]);
    expect(budget.take("b", 2)).toBe(true);
    expect(budget.take("a", 60_000)).toBe(true);
    expect(budget.take("a", 60_001)).toBe(true);
    expect(budget.take("a", 60_002)).toBe(false);
  });
});
