"use client";
import { createContext, useContext } from "react";
import type { ThreadDetailState } from "./use-thread-detail.ts";
import type { TimeTravel } from "./use-time-travel.ts";

export type OpenThread = ThreadDetailState & {
  threadId: string;
  /** Forks made from this view get their own worktree (the header's checkbox). */
  isolatedForks: boolean;
  setIsolatedForks(value: boolean): void;
  /** B8: while `travel.atSequence` is set, `detail` is the thread as it was then. */
  travel: TimeTravel;
};

/** The open thread's live detail, shared by its tabs (conversation, handoffs, checkpoints…). */
export const ThreadContext = createContext<OpenThread | null>(null);

export function useThread(): OpenThread {
  const value = useContext(ThreadContext);
  if (value === null) throw new Error("useThread outside a thread page");
  return value;
}
