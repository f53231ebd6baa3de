import {
  branchHead,
  graftWorkspace,
  moveBranch,
  planBranchMerge,
  undoBranchMerges,
} from "./branch-merge.ts";
import { captureCheckpoint } from "./capture.ts";
import { checkpointExists, deleteThreadRefs, resolveCheckpoint } from "./checkpoint-refs.ts";
import { diffCheckpoints, diffTrees } from "./diff.ts";
import { type CheckpointStoreOptions, headCommit, openGitContext } from "./git-context.ts";
import { changedFiles, checkpointTree, mergeTrees, snapshotTree } from "./merge.ts";
import {
  checkpointBaseTree,
  planPathRestore,
  recordSafetyCheckpoint,
  reversePatchTree,
  safetyWroteTree,
} from "./path-restore.ts";
import { restoreCheckpoint, restoreTree } from "./restore.ts";
import { completeStaged, dropStaged, stageCapture } from "./staged-capture.ts";
import { summarizeCheckpointFiles } from "./summary.ts";
import { sweepAbandonedTempIndexes } from "./temp-index.ts";
import type {
  BranchHead,
  BranchMergeInput,
  BranchMergePlan,
  CaptureInput,
  CaptureResult,
  StagedCaptureInput,
  CheckpointFileSummary,
  CheckpointStatus,
  FileChange,
  FileDiff,
  IsolatedWorktree,
  IsolatedWorktreeInput,
  PathRestorePlan,
  RemoveWorktreeInput,
  RestoreResult,
  TreeMerge,
  WorktreeEntry,
} from "./types.ts";
import {
  branchCommit,
  createIsolatedWorktree,
  listWorktrees,
  pruneWorktrees,
  removeWorktree,
} from "./worktree.ts";

export type CheckpointStore = {
  /** `repo`: the workspace's own repository; `shadow`: a private git dir for a plain folder. */
  readonly mode: "repo" | "shadow";
  readonly workspaceRoot: string;
  capture(input: CaptureInput): Promise<CaptureResult>;
  /** Reads the folder for a first capture now; its commit waits for `completeStaged`. */
  stageCapture(input: StagedCaptureInput): Promise<void>;
  /** Writes a staged capture's commit and ref; false when none was staged under that name. */
  completeStaged(input: StagedCaptureInput): Promise<boolean>;
  diff(fromRef: string | null, toRef: string, paths?: readonly string[]): Promise<FileDiff[]>;
  status(ref: string): Promise<CheckpointStatus>;
  restore(ref: string): Promise<RestoreResult>;
  summarizeCheckpointFiles(ref: string): Promise<CheckpointFileSummary>;
  createIsolatedWorktree(input: IsolatedWorktreeInput): Promise<IsolatedWorktree>;
  removeWorktree(input: RemoveWorktreeInput): Promise<void>;
  listWorktrees(): Promise<WorktreeEntry[]>;
  branchCommit(branch: string): Promise<string | null>;
  /** The checked-out commit (HEAD), or null before the first commit; no status is read. */
  headCommit(): Promise<string | null>;
  pruneWorktrees(): Promise<void>;
  /** The workspace right now as a tree object; nothing is recorded (see merge.ts). */
  snapshotTree(seed: string | null): Promise<string>;
  checkpointTree(ref: string): Promise<string>;
  checkpointCommit(ref: string): Promise<string>;
  changedFiles(from: string, to: string): Promise<FileChange[]>;
  /** Three-way merge of trees in the object database only; conflicts listed, nothing applied. */
  mergeTrees(input: { base: string; ours: string; theirs: string }): Promise<TreeMerge>;
  /** Makes the workspace equal to a tree (as restore does); `current`: its snapshot just taken. */
  restoreTree(tree: string, current?: string): Promise<FileChange[]>;
  /** The checked-out branch, its commit, and whether the checkout is clean (branch-merge.ts). */
  branchHead(): Promise<BranchHead>;
  /** `outside` everywhere but the workspace, which comes from `inside` (a full tree). */
  graftWorkspace(outside: string, inside: string): Promise<string>;
  /** The commits of a bring-back merge, as objects only (nothing moves). */
  planBranchMerge(input: BranchMergeInput): Promise<BranchMergePlan>;
  /** Compare-and-swap of the branch, then the index follows; files are the caller's. */
  moveBranch(input: { branch: string; from: string; to: string; reason: string }): Promise<void>;
  /** Takes back bring-back merges of these runs sitting at the branch tip; how many. */
  undoBranchMerges(runIds: ReadonlySet<string>): Promise<number>;
  /** B14: restoring only the paths that differ between `wrote` and `target` (path-restore.ts). */
  planPathRestore(input: {
    wrote: string;
    target: string;
    paths?: readonly string[];
  }): Promise<PathRestorePlan>;
  /** `tree` with one file's patch applied in reverse; null when it no longer applies. */
  reversePatchTree(tree: string, patch: string): Promise<string | null>;
  /** Unified diff per file between two tree-ishes (only `paths`, when given). */
  diffTrees(from: string, to: string, paths?: readonly string[]): Promise<FileDiff[]>;
  /** The tree the checkpoint's thread started from (what a diff "from the start" compares to). */
  checkpointBaseTree(ref: string): Promise<string>;
  /** Keeps `before` (the workspace before a forced restore) under a ref; returns the ref. */
  recordSafetyCheckpoint(input: {
    threadId: string;
    name: string;
    before: string;
    wrote: string;
  }): Promise<string>;
  /** Issue 33: removes every checkpoint ref (and staged capture) of a thread; how many refs. */
  deleteThreadRefs(threadId: string): Promise<number>;
  /** The tree the restore that made this safety checkpoint left behind. */
  safetyWroteTree(ref: string): Promise<string>;
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
    stageCapture: (input) => stageCapture(ctx, input),
    completeStaged: (input) => completeStaged(ctx, input),
    diff: (fromRef, toRef, paths) => diffCheckpoints(ctx, fromRef, toRef, paths),
    status: async (ref) => ((await checkpointExists(ctx, ref)) ? "ready" : "missing"),
    restore: (ref) => restoreCheckpoint(ctx, ref),
    summarizeCheckpointFiles: (ref) => summarizeCheckpointFiles(ctx, ref),
    createIsolatedWorktree: (input) => createIsolatedWorktree(ctx, input),
    removeWorktree: (input) => removeWorktree(ctx, input),
    listWorktrees: () => listWorktrees(ctx),
    branchCommit: (branch) => branchCommit(ctx, branch),
    headCommit: () => headCommit(ctx),
    pruneWorktrees: () => pruneWorktrees(ctx),
    snapshotTree: (seed) => snapshotTree(ctx, seed),
    checkpointTree: (ref) => checkpointTree(ctx, ref),
    checkpointCommit: async (ref) => (await resolveCheckpoint(ctx, ref)).commit,
    changedFiles: (from, to) => changedFiles(ctx, from, to),
    mergeTrees: (input) => mergeTrees(ctx, input),
    restoreTree: (tree, current) => restoreTree(ctx, tree, current),
    branchHead: () => branchHead(ctx),
    graftWorkspace: (outside, inside) => graftWorkspace(ctx, outside, inside),
    planBranchMerge: (input) => planBranchMerge(ctx, input),
    moveBranch: (input) => moveBranch(ctx, input),
    undoBranchMerges: (runIds) => undoBranchMerges(ctx, runIds),
    planPathRestore: (input) => planPathRestore(ctx, input),
    recordSafetyCheckpoint: (input) => recordSafetyCheckpoint(ctx, input),
    safetyWroteTree: (ref) => safetyWroteTree(ctx, ref),
    deleteThreadRefs: async (threadId) => {
      await dropStaged(ctx, threadId);
      return deleteThreadRefs(ctx, threadId);
    },
    reversePatchTree: (tree, patch) => reversePatchTree(ctx, tree, patch),
    diffTrees: (from, to, paths) => diffTrees(ctx, from, to, paths),
    checkpointBaseTree: (ref) => checkpointBaseTree(ctx, ref),
  };
}
