import type { ProviderKind } from "../types.ts";

/**
 * Every key the app caches under, in one place: two screens asking for the same thing build the
 * same key, so they share one request and one answer. Per-thread keys start with the thread, so
 * one prefix reaches everything read about it.
 */
export const queryKeys = {
  projects: () => ["projects"] as const,
  providerStatus: () => ["provider-status"] as const,
  providerModels: (provider: ProviderKind) => ["provider-models", provider] as const,
  pendingRequests: () => ["pending-requests"] as const,
  archivedThreads: () => ["archived-threads"] as const,
  transfer: (transferId: string) => ["transfer", transferId] as const,
  /** A node's raw provider frames (debug view). */
  rawFrames: (threadId: string, runId: string, nodeId: string) =>
    ["thread", threadId, "raw", runId, nodeId] as const,
  usage: (days: number) => ["usage", days] as const,
  threadDetail: (threadId: string) => ["thread", threadId, "detail"] as const,
  /** A thread's sidebar row (its detail's one-run window). */
  threadRow: (threadId: string) => ["thread", threadId, "row"] as const,
  graph: (threadId: string) => ["thread", threadId, "graph"] as const,
  /**
   * A Review diff compares checkpoints, which never change once made: the checkpoints' ids and
   * statuses are part of the key, so a new checkpoint (from the event stream) is a new answer.
   */
  reviewDiff: (threadId: string, selection: object, checkpoints: string) =>
    ["thread", threadId, "review", selection, checkpoints] as const,
  /** `@`-mention file search in the thread's workspace. */
  workspaceFiles: (threadId: string, query: string) =>
    ["thread", threadId, "files", query] as const,
  timeline: (threadId: string) => ["thread", threadId, "timeline"] as const,
  /** The thread as it stood at a past event: it never changes, so it is kept as long as used. */
  threadAt: (threadId: string, sequence: number | null) =>
    ["thread", threadId, "at", sequence] as const,
  /** Fork ids in the order shown (the comparison's columns follow it). */
  forkComparison: (forkIds: readonly string[]) => ["fork-comparison", forkIds.join(",")] as const,
  /** Every file's diffs of these forks (a prefix: one fork writing more outdates them all). */
  compareDiffs: (forkIds: readonly string[]) => ["compare-diff", forkIds.join(",")] as const,
  compareDiff: (forkIds: readonly string[], path: string | null) =>
    [...queryKeys.compareDiffs(forkIds), path] as const,
};
