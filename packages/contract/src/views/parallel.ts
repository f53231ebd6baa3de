import type {
  CheckpointId,
  FanOutTarget,
  OverlapWarning,
  ProviderKind,
  RunId,
  RunStatus,
  ThreadId,
  TokenUsage,
} from "@skein/domain";
import type { ReviewFile } from "./review.ts";

/**
 * How a bring-back treats the fork's code: `squash` lands it as uncommitted changes; `merge`
 * also commits it on the checked-out branch (a work commit and a merge commit); `none`.
 */
export type BringBackCode = "squash" | "merge" | "none";

export type CodeBroughtBack = {
  mode: Exclude<BringBackCode, "none">;
  /** Rolling the thread back to this checkpoint undoes the merge (and the bring-back run). */
  undoCheckpointId: CheckpointId;
  files: Array<{ path: string; status: string; additions: number; deletions: number }>;
  /** `merge` only: the branch, the commit it was on, and the commits it moved to. */
  commits?: {
    branch: string;
    head: string;
    /** The commit holding the fork's net change (parent: `head`). */
    work: string;
    /** The merge commit (parents: `head`, `work`) the branch moves to. */
    merge: string;
  };
};

/** Issue 26: bring a fork's code back on its own (`thread.bringBackCode`). */
export type BringBackCodeInput = {
  threadId: ThreadId;
  /** A fork of `threadId` (its latest stable checkpoint is what comes back). */
  forkThreadId: ThreadId;
  commandId?: string;
};

export type FanOutInput = {
  threadId: ThreadId;
  text: string;
  targets: FanOutTarget[];
  /** Every fork gets its own worktree on its own branch; the only mode a fan-out has. */
  isolated: true;
  /** B19: an outside agent fans out (its forks record `createdBy: "agent"`). */
  agentName?: string;
  commandId?: string;
};

export type FanOutFork = { threadId: ThreadId; provider: ProviderKind; model: string | null };
export type FanOutAnswer = { forks: FanOutFork[]; sequence: number };

/** A check command's outcome in one fork's worktree (B9 compare). */
export type CheckResult = {
  command: string;
  /** null when the command was stopped (timeout) or died on a signal. */
  exitCode: number | null;
  passed: boolean;
  timedOut: boolean;
  durationMs: number;
  /** The end of stdout and stderr interleaved, at most `maxOutputBytes`. */
  output: string;
  truncated: boolean;
};

export type CompareInput = {
  threadIds: ThreadId[];
  /** Run in each fork's worktree (e.g. `pnpm test`); its result is reported per fork. */
  checkCommand?: string;
  checkTimeoutMs?: number;
};

export type ForkFileChange = { path: string; status: string; additions: number; deletions: number };

export type ForkSummary = {
  threadId: ThreadId;
  title: string;
  /** The fork's latest run: its provider, model and effort, status, timing and usage. */
  provider: ProviderKind | null;
  model: string | null;
  /** Reasoning effort the latest run asked for; null: the provider's default. */
  effort: string | null;
  status: RunStatus | "idle";
  archived: boolean;
  startedAt: string | null;
  completedAt: string | null;
  durationMs: number | null;
  usage: TokenUsage | null;
  branch: string | null;
  worktreePath: string | null;
  /** What the fork's worktree holds now against the fork point; null without one (or removed). */
  files: ForkFileChange[] | null;
  check: CheckResult | null;
};

export type ForkComparison = {
  forks: ForkSummary[];
  /** Files two or more live (not archived) forks changed. */
  overlaps: OverlapWarning[];
};

/** `thread.compareDiff`: the forks' diffs since their fork points, one file or all of them. */
export type CompareDiffInput = { threadIds: ThreadId[]; path?: string };

export type ForkDiff = {
  threadId: ThreadId;
  /** The worktree as it is now against the fork point; null without a worktree (or removed). */
  files: ReviewFile[] | null;
};
export type CompareDiff = { forks: ForkDiff[] };

/**
 * B9 "pick the winner": the winner's code and conversation come back (as `sendMessage` with
 * `bringBackFrom` and code `squash` does), then each of `others` is archived.
 */
export type PickWinnerInput = {
  threadId: ThreadId;
  winnerThreadId: ThreadId;
  /** The other forks of the fan-out; each must be a fork of `threadId`. */
  others: ThreadId[];
  /** The message that brings the winner back (what the bring-back run is asked). */
  text: string;
  commandId?: string;
};
export type PickWinnerAnswer = {
  runId: RunId;
  code: CodeBroughtBack | null;
  /** The forks archived by this command (others already archived are left out). */
  archived: ThreadId[];
  sequence: number;
};

/** What `thread.watchOverlaps` sends: each fork's changed files and the overlaps between them. */
export type ForkOverlaps = {
  /** Per fork: the files its worktree changed since the fork point (null without a worktree). */
  forks: Array<{ threadId: ThreadId; status: string; files: string[] | null }>;
  overlaps: OverlapWarning[];
};

export type SweepInput = {
  /** How long an archived fork, a merged fork or an orphan is left alone (default 24 h). */
  graceMs?: number;
  /** Also remove worktrees holding work no checkpoint captured. */
  force?: boolean;
  /** Report what would be removed, remove nothing. */
  dryRun?: boolean;
};

export type SweptWorktree = {
  path: string;
  threadId: string;
  reason: "archived" | "merged" | "orphan";
  /** The fork's branch was deleted too (only when it still points where the fork began). */
  branchDeleted: boolean;
};
export type KeptWorktree = { path: string; threadId: string; reason: string };
export type SweepResult = { removed: SweptWorktree[]; kept: KeptWorktree[] };

/** Issue 33: the purge of deleted threads past their grace period. */
export type PurgeInput = {
  /** How long a deleted thread keeps its worktree and checkpoint refs (default 7 days). */
  graceMs?: number;
  /** Also remove worktrees holding work no checkpoint captured. */
  force?: boolean;
  /** Report what would be purged, remove nothing. */
  dryRun?: boolean;
};
export type PurgedThread = {
  threadId: string;
  /** The worktree removed, or null when the thread had none. */
  worktreePath: string | null;
  refsDeleted: number;
};
export type PurgeResult = {
  purged: PurgedThread[];
  kept: Array<{ threadId: string; reason: string }>;
};
