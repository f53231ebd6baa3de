"use client";
import { createContext, use } from "react";

/**
 * B8 time travel: the moment (ms since the epoch) the thread is shown as of, or null when live.
 * A context of its own, apart from the thread's: it changes only when the person moves, so the
 * run headers that read it do not render again for every streamed delta.
 */
export const PastMomentContext = createContext<number | null>(null);

export function usePastMoment(): number | null {
  return use(PastMomentContext);
}
