import { captureCheckpoint } from "./capture.ts";
import { checkpointExists } from "./checkpoint-refs.ts";
import { diffCheckpoints } from "./diff.ts";
import { type CheckpointStoreOptions, openGitContext } from "./git-context.ts";
import { restoreCheckpoint } from "./restore.ts";
import { summarizeCheckpointFiles } from "./summary.ts";
import { sweepAbandonedTempIndexes } from "./temp-index.ts";
import type {
  CaptureInput,
  CaptureResult,
  CheckpointFileSummary,
  CheckpointStatus,
  FileDiff,
  IsolatedWorktree,
  IsolatedWorktreeInput,
  RemoveWorktreeInput,
  RestoreResult,
} from "./types.ts";
import { createIsolatedWorktree, removeWorktree } from "./worktree.ts";

export type CheckpointStore = {
  /** `repo`: the workspace's own repository; `shadow`: a private git dir for a plain folder. */
  readonly mode: "repo" | "shadow";
  readonly workspaceRoot: string;
  capture(input: CaptureInput): Promise<CaptureResult>;
  diff(fromRef: string | null, toRef: string, paths?: readonly string[]): Promise<FileDiff[]>;
  status(ref: string): Promise<CheckpointStatus>;
  restore(ref: string): Promise<RestoreResult>;
  summarizeCheckpointFiles(ref: string): Promise<CheckpointFileSummary>;
  createIsolatedWorktree(input: IsolatedWorktreeInput): Promise<IsolatedWorktree>;
  removeWorktree(input: RemoveWorktreeInput): Promise<void>;
};

/**
 * Opens checkpoint storage for one workspace. Detects whether the workspace is (inside) a git
 * repository; otherwise creates/opens a shadow git dir at `<shadowDir>/git`. `shadowDir` also holds
 * temporary indexes and a stat cache in both modes, so give each workspace its own.
 */
export async function createCheckpointStore(
  options: CheckpointStoreOptions,
): Promise<CheckpointStore> {
  const ctx = await openGitContext(options);
  await sweepAbandonedTempIndexes(ctx).catch(() => undefined);
  return {
    mode: ctx.mode,
    workspaceRoot: ctx.workspaceRoot,
    capture: (input) => captureCheckpoint(ctx, input),
    diff: (fromRef, toRef, paths) => diffCheckpoints(ctx, fromRef, toRef, paths),
    status: async (ref) => ((await checkpointExists(ctx, ref)) ? "ready" : "missing"),
    restore: (ref) => restoreCheckpoint(ctx, ref),
    summarizeCheckpointFiles: (ref) => summarizeCheckpointFiles(ctx, ref),
    createIsolatedWorktree: (input) => createIsolatedWorktree(ctx, input),
    removeWorktree: (input) => removeWorktree(ctx, input),
  };
}
