import type { CheckpointId, RunId, ThreadId } from "@skein/domain";

/** What `review.diff` answers; kept apart from the git plumbing so API clients' types stay light. */
export type ReviewPoint = {
  checkpointId: CheckpointId;
  runId: RunId | null;
  appRunOrdinal: number | null;
};

export type ReviewFile = {
  path: string;
  oldPath?: string;
  status: "added" | "modified" | "deleted" | "renamed";
  additions: number;
  deletions: number;
  binary: boolean;
  /** Unified diff of this file; empty when `truncated` (too large to send). */
  patch: string;
  truncated: boolean;
};

export type ReviewDiff = {
  /** Null: the thread's start (its baseline snapshot, or HEAD for threads older than baselines). */
  from: ReviewPoint | null;
  /** Null when the thread has no ready checkpoint yet (then `files` is empty). */
  to: ReviewPoint | null;
  files: ReviewFile[];
};

export type ReviewDiffInput = {
  threadId: ThreadId;
  /** One run's changes: its checkpoint against the one before it. */
  runId?: RunId;
  /** The thread's changes since this run's checkpoint ("since I last looked"). */
  sinceRunId?: RunId;
};
