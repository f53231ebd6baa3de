import { describe, expect, it } from "vitest";
import { relativeTime } from "./relative-time.ts";

const at = Date.UTC(2026, 11, 6, 12, 0, 0);
const iso = (msBefore: number) => new Date(at - msBefore).toISOString();
const MIN = 60_000;

describe("relative time of a sidebar row", () => {
  it("says just now, minutes, hours and days ago in whole steps", () => {
    expect(relativeTime(iso(0), at)).toBe("just now");
    expect(relativeTime(iso(59_999), at)).toBe("just now");
    expect(relativeTime(iso(MIN), at)).toBe("1 min ago");
    expect(relativeTime(iso(3 * MIN + 59_000), at)).toBe("3 min ago");
    expect(relativeTime(iso(60 * MIN), at)).toBe("1 h ago");
    expect(relativeTime(iso(23 * 60 * MIN + 59 * MIN), at)).toBe("23 h ago");
    expect(relativeTime(iso(24 * 60 * MIN), at)).toBe("1 d ago");
    expect(relativeTime(iso(6 * 24 * 60 * MIN), at)).toBe("6 d ago");
  });

  it("gives the date past a week, and 'just now' for a time slightly ahead (clock skew)", () => {
    const old = relativeTime(iso(40 * 24 * 60 * MIN), at);
    expect(old).not.toMatch(/ago/);
    expect(old).toMatch(/2026/);
    expect(relativeTime(iso(-5_000), at)).toBe("just now");
  });

  it("shows nothing for an unreadable time rather than a wrong one", () => {
    expect(relativeTime("not a time", at)).toBe("");
  });
});
