import type { ThreadUsageLimit } from "../../entities/usage-limit.ts";
import type { EventData } from "../../events.ts";
import type { RunId } from "../../ids.ts";
import { touchShell } from "../mutations.ts";
import type { ThreadState } from "../thread-state.ts";

/**
 * Issue 32: the thread's limit, on the thread itself (so its row, the sidebar and the page all
 * show it). Skein's resumes since the last completed run carry over to the next limit.
 */
export function onUsageLimitReached(s: ThreadState, d: EventData<"UsageLimitReached">): void {
  setLimit(s, d.at, {
    runId: d.runId,
    provider: d.provider,
    resetsAt: d.resetsAt,
    reachedAt: d.at,
    resumedAt: null,
    automaticResumes: s.thread?.usageLimit?.automaticResumes ?? 0,
  });
}

export function onUsageLimitResumed(s: ThreadState, d: EventData<"UsageLimitResumed">): void {
  const limit = s.thread?.usageLimit;
  if (!limit || limit.runId !== d.runId) return;
  setLimit(s, d.at, { ...limit, resumedAt: d.at, automaticResumes: limit.automaticResumes + 1 });
}

/** The person queued the limited run again themselves: the limit no longer holds the queue. */
export function limitRetried(s: ThreadState, runId: RunId, at: string): void {
  const limit = s.thread?.usageLimit;
  if (!limit || limit.runId !== runId || limit.resumedAt !== null) return;
  setLimit(s, at, { ...limit, resumedAt: at });
}

/**
 * A run of the limited provider completed: the limit is over, and so is the count of resumes in
 * a row. A run switched to another provider says nothing about this one's limit.
 */
export function limitOver(s: ThreadState, provider: string, at: string): void {
  if (s.thread?.usageLimit?.provider !== provider) return;
  setLimit(s, at, null);
}

function setLimit(s: ThreadState, at: string, usageLimit: ThreadUsageLimit | null): void {
  if (!s.thread) return;
  s.thread = { ...s.thread, usageLimit };
  touchShell(s, at);
}
