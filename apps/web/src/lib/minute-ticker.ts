/**
 * One clock for every relative time on screen: rows subscribe to a single shared timer, and the
 * time they read moves only on whole minutes, so between minutes nothing re-renders and on a
 * minute only the rows in view do (one timer, not one per row). The timer runs while someone
 * listens. Timers and clock are injected so tests drive time by hand.
 */
export type Clock = {
  now(): number;
  setInterval(tick: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
};

export const MINUTE_MS = 60_000;
/** How often the timer looks at the clock; the value it hands out changes once a minute. */
const CHECK_MS = 10_000;

export type MinuteTicker = {
  /** The current time, rounded down to the minute (stable between minutes). */
  read(): number;
  subscribe(listener: () => void): () => void;
};

export function createMinuteTicker(clock: Clock): MinuteTicker {
  const listeners = new Set<() => void>();
  let minute = floorMinute(clock.now());
  let handle: unknown = null;
  const check = () => {
    const next = floorMinute(clock.now());
    if (next === minute) return;
    minute = next;
    for (const listener of [...listeners]) listener();
  };
  return {
    read() {
      // A reader after a long pause (no listeners, so no timer) still gets the right minute.
      if (handle === null) minute = floorMinute(clock.now());
      return minute;
    },
    subscribe(listener) {
      listeners.add(listener);
      if (handle === null) {
        minute = floorMinute(clock.now());
        handle = clock.setInterval(check, CHECK_MS);
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && handle !== null) {
          clock.clearInterval(handle);
          handle = null;
        }
      };
    },
  };
}

function floorMinute(ms: number): number {
  return Math.floor(ms / MINUTE_MS) * MINUTE_MS;
}
