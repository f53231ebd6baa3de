"use client";
import { requiredContext } from "./required-context.ts";
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
const thread = requiredContext<OpenThread>("a thread page");
export const ThreadContext = thread.Context;

export function useThread(): OpenThread {
  return thread.useRequired();
}
