"use client";
import { useSyncExternalStore } from "react";
import { createMinuteTicker } from "./minute-ticker.ts";

const ticker = createMinuteTicker({
  now: () => Date.now(),
  setInterval: (tick, ms) => setInterval(tick, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
});

/** The app's shared minute clock (see minute-ticker.ts): re-renders the caller once a minute. */
export function useMinute(): number {
  return useSyncExternalStore(ticker.subscribe, ticker.read, ticker.read);
}
