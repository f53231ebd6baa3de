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

/** One path a rollback or revert changes in the workspace: what it is now → what it becomes. */
export type RestoredFile = ReviewFile & {
  /** The person changed this path since the agent last wrote it; refused unless `force`. */
  conflict: boolean;
};

/** `thread.rollbackPreview`: exactly what `thread.rollback` with the same input would do. */
export type RollbackPreview = {
  checkpointId: CheckpointId;
  scope: "code" | "conversation" | "both";
  /** App run ordinals that would become rolled_back (empty for scope `code`). */
  rolledBackRunOrdinals: number[];
  /** Each path the code rollback changes, current content → restored; empty for `conversation`. */
  files: RestoredFile[];
  /** Paths the person changed since the agent last wrote them; the rollback needs `force`. */
  conflicts: string[];
};

/** What `thread.rollback` answers. */
export type RollbackResult = {
  sequence: number;
  /** Files the rollback changed (path and change, no patch). */
  files: Array<Pick<ReviewFile, "path" | "status" | "additions" | "deletions">>;
  /** Set when `force` overwrote something: rolling back to it puts the overwritten files back. */
  safetyCheckpointId: CheckpointId | null;
};

/** `review.revert`: one file (or one hunk of it) of the review diff the same ids select. */
export type ReviewRevertInput = ReviewDiffInput & {
  path: string;
  /** 0-based index of the hunk in the file's patch; absent: the whole file. */
  hunk?: number;
  force?: boolean;
  commandId?: string;
};
