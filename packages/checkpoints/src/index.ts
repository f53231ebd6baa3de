export { checkpointRef } from "./checkpoint-refs.ts";
export { type CheckpointStore, createCheckpointStore } from "./checkpoint-store.ts";
export {
  CheckpointCaptureError,
  CheckpointError,
  CheckpointMissingError,
  GitCommandError,
  NotAGitRepositoryError,
} from "./errors.ts";
export type { CheckpointStoreOptions } from "./git-context.ts";
export type {
  BranchHead,
  BranchMergeInput,
  BranchMergePlan,
  CaptureInput,
  CaptureResult,
  CheckpointFileSummary,
  CheckpointStatus,
  FileChange,
  FileChangeStatus,
  FileDiff,
  IsolatedWorktree,
  IsolatedWorktreeInput,
  PathRestorePlan,
  PlannedPathRestore,
  RemoveWorktreeInput,
  RestoreResult,
  SummarizedFile,
  TreeMerge,
  WorktreeEntry,
} from "./types.ts";
export { gitText, runGit, type GitResult, type GitRunOptions } from "./git-runner.ts";
export { worktreeHasChanges } from "./worktree.ts";
