import { describe, expect, it } from "vitest";
import { formatElapsed, runElapsedMs } from "./elapsed.ts";

describe("run progress in words", () => {
  it("formats seconds, minutes and hours", () => {
    expect(formatElapsed(0)).toBe("0 s");
    expect(formatElapsed(4_900)).toBe("4 s");
    expect(formatElapsed(65_000)).toBe("1 m 05 s");
    expect(formatElapsed(2 * 3600_000 + 3 * 60_000)).toBe("2 h 03 m");
    expect(formatElapsed(-5)).toBe("0 s");
  });

  it("counts from the start to the end, or to now while live, from the request while queued", () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const base = Date.parse(at(0));
    expect(
      runElapsedMs({ requestedAt: at(0), startedAt: at(2), completedAt: at(12) }, base + 99_000),
    ).toBe(10_000);
    expect(
      runElapsedMs({ requestedAt: at(0), startedAt: at(2), completedAt: null }, base + 7_000),
    ).toBe(5_000);
    expect(
      runElapsedMs({ requestedAt: at(0), startedAt: null, completedAt: null }, base + 3_000),
    ).toBe(3_000);
    expect(runElapsedMs({ requestedAt: "nope", startedAt: null, completedAt: null }, 0)).toBeNull();
  });
});
