import { describe, expect, it } from "vitest";
import { type Clock, createMinuteTicker, MINUTE_MS } from "./minute-ticker.ts";

/** A hand-driven clock: time moves only when the test says, timers fire on `advance`. */
function manualClock(start: number) {
  let now = start;
  const timers = new Map<number, { tick: () => void; ms: number; next: number }>();
  let nextId = 1;
  const clock: Clock = {
    now: () => now,
    setInterval(tick, ms) {
      const id = nextId++;
      timers.set(id, { tick, ms, next: now + ms });
      return id;
    },
    clearInterval(handle) {
      timers.delete(handle as number);
    },
  };
  return {
    clock,
    timers,
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.values()]
          .filter((t) => t.next <= end)
          .sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        now = due.next;
        due.next += due.ms;
        due.tick();
      }
      now = end;
    },
  };
}

describe("the shared minute ticker behind every relative time", () => {
  it("runs one timer for all listeners and tells them once per minute, not per check", () => {
    const start = Date.UTC(2026, 11, 6, 12, 0, 5);
    const m = manualClock(start);
    const ticker = createMinuteTicker(m.clock);
    const calls = [0, 0, 0];
    const offs = calls.map((_, i) =>
      ticker.subscribe(() => {
        calls[i] = (calls[i] ?? 0) + 1;
      }),
    );
    expect(m.timers.size).toBe(1);
    expect(ticker.read()).toBe(Date.UTC(2026, 11, 6, 12, 0, 0));

    m.advance(50_000); // still 12:00: checks ran, nobody was told
    expect(calls).toEqual([0, 0, 0]);
    m.advance(10_000); // 12:01:05
    expect(calls).toEqual([1, 1, 1]);
    expect(ticker.read()).toBe(Date.UTC(2026, 11, 6, 12, 1, 0));
    m.advance(3 * MINUTE_MS);
    expect(calls).toEqual([4, 4, 4]);

    for (const off of offs) off();
    expect(m.timers.size).toBe(0);
  });

  it("stops its timer with the last listener and still reads the right minute after a pause", () => {
    const m = manualClock(Date.UTC(2026, 11, 6, 9, 30, 0));
    const ticker = createMinuteTicker(m.clock);
    const off = ticker.subscribe(() => {});
    off();
    expect(m.timers.size).toBe(0);
    m.advance(90 * MINUTE_MS);
    expect(ticker.read()).toBe(Date.UTC(2026, 11, 6, 11, 0, 0));
  });
});
