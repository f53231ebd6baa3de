export { checkpointRef } from "./checkpoint-refs.ts";
export { type CheckpointStore, createCheckpointStore } from "./checkpoint-store.ts";
export { CheckpointMissingError, GitCommandError } from "./errors.ts";
export type { FileDiff, PathRestorePlan } from "./types.ts";
export { gitText, runGit } from "./git-runner.ts";
export { worktreeHasChanges } from "./worktree.ts";
