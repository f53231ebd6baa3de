import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { realWaitClock } from "./wait-clock.ts";

// Node's timers, faked: time moves only when the test moves it.
beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2026-01-01T10:00:00.000Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("issue 32: the real wait clock", () => {
  it("fires once the time has come, not before; a cancelled wait never fires", () => {
    const fired: string[] = [];
    realWaitClock.at(new Date("2026-01-01T10:02:00.000Z"), () => fired.push("reset"));
    const cancel = realWaitClock.at(new Date("2026-01-01T10:01:00.000Z"), () =>
      fired.push("cancelled"),
    );
    cancel();
    vi.advanceTimersByTime(119_999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(["reset"]);
    vi.advanceTimersByTime(3_600_000);
    expect(fired).toEqual(["reset"]);
  });

  it("a time already past fires at once; one past setTimeout's longest delay is reached in steps", () => {
    const fired: string[] = [];
    realWaitClock.at(new Date("2026-01-01T09:00:00.000Z"), () => fired.push("past"));
    vi.advanceTimersByTime(0);
    expect(fired).toEqual(["past"]);
    const far = new Date(Date.parse("2026-01-01T10:00:00.000Z") + 30 * 24 * 3_600_000);
    realWaitClock.at(far, () => fired.push("far"));
    vi.advanceTimersByTime(29 * 24 * 3_600_000);
    expect(fired).toEqual(["past"]);
    vi.advanceTimersByTime(24 * 3_600_000);
    expect(fired).toEqual(["past", "far"]);
  });
});
