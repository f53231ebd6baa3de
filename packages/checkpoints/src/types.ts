export type FileChangeStatus = "added" | "modified" | "deleted" | "renamed";

export type FileChange = {
  /** Path relative to the workspace root, "/"-separated. For renames, the new path. */
  path: string;
  /** Previous path, only for renames. */
  oldPath?: string;
  status: FileChangeStatus;
  /** Added/removed lines; 0 for binary files (see `binary`). */
  additions: number;
  deletions: number;
  binary: boolean;
};

export type CaptureInput = {
  threadId: string;
  runId: string;
  /** The previous checkpoint of the thread; omitted for the first run (diff against the base). */
  parentRef?: string;
};

/** A capture whose folder is read now and whose commit is written later (staged-capture.ts). */
export type StagedCaptureInput = { threadId: string; runId: string };

export type CaptureResult = {
  ref: string;
  commit: string;
  /**
   * The tree this capture wrote from its index (the folder as read): its commit's tree, and the
   * one its index is kept as a stat cache for, even where another instance created the ref first.
   */
  tree: string;
  /** Commit the thread started from (HEAD at first capture), null when the base is an empty tree. */
  baseCommit: string | null;
  /** Changes relative to `parentRef`, or to the thread base when there is none. */
  files: FileChange[];
};

export type FileDiff = FileChange & {
  /** Unified diff text for this file ("Binary files ... differ" for binary content). */
  patch: string;
};

export type CheckpointStatus = "ready" | "missing";

export type RestoreResult = {
  ref: string;
  commit: string;
  /** What restore changed in the workspace: current state → checkpoint. */
  files: FileChange[];
};

export type SummarizedFile = FileChange & {
  /** Size in bytes in the checkpoint; null when deleted (or a submodule link). */
  size: number | null;
};

export type CheckpointFileSummary = {
  ref: string;
  commit: string;
  baseCommit: string | null;
  /** Files held by the checkpoint (whole workspace) and their total size. */
  totalFiles: number;
  totalBytes: number;
  /** Files that differ from the thread's start. */
  changedFiles: SummarizedFile[];
};

export type IsolatedWorktreeInput = (
  | { ref: string }
  /** A commit of the repository (a new thread's worktree starts at the checked-out HEAD). */
  | { commit: string }
) & {
  /** New branch name, created at the checkpoint commit. */
  branch: string;
  /** Where the worktree goes; must not exist yet (or be empty). */
  path: string;
};

export type IsolatedWorktree = {
  branch: string;
  worktreePath: string;
  /** The workspace inside the worktree (differs from worktreePath when the workspace is a subfolder). */
  workspacePath: string;
  commit: string;
};

export type RemoveWorktreeInput = {
  worktreePath: string;
  /** Also delete this branch (force); leave undefined to keep the fork's commits reachable. */
  deleteBranch?: string;
};

export type TreeMerge = {
  /** The merged full-repository tree (with conflict markers in conflicted files). */
  tree: string;
  /** Workspace-relative paths changed on both sides incompatibly; empty for a clean merge. */
  conflicts: string[];
};

export type WorktreeEntry = {
  path: string;
  /** Short branch name, null when detached. */
  branch: string | null;
};

export type BranchHead = {
  /** Short name of the checked-out branch; null when HEAD is detached (or no repository). */
  branch: string | null;
  commit: string | null;
  /** Index and work tree equal HEAD and nothing is untracked (ignored files aside). */
  clean: boolean;
};

export type BranchMergeInput = {
  branch: string;
  /** The branch's commit the merge goes on (its first parent). */
  head: string;
  /** The merged full-repository tree (both commits hold it). */
  tree: string;
  /** Message of the commit holding the fork's net change. */
  workMessage: string;
  /** Message of the merge commit (a trailer naming `runId` is added). */
  mergeMessage: string;
  runId: string;
};

export type BranchMergePlan = {
  branch: string;
  head: string;
  /** The commit holding the fork's net change (parent: `head`). */
  work: string;
  /** The merge commit (parents: `head`, `work`) the branch moves to. */
  merge: string;
};

export type PlannedPathRestore = FileDiff & {
  /** The person changed this path since the agent last wrote it: restoring it loses that. */
  conflict: boolean;
};

export type PathRestorePlan = {
  /** The workspace as it is now (a full tree; nothing recorded). */
  current: string;
  /** What the workspace becomes: `current` with the agent's paths restored. */
  result: string;
  /** Each path the restore changes, current → result, with its patch. */
  files: PlannedPathRestore[];
  /** Paths the person changed since the agent last wrote them, sorted. */
  conflicts: string[];
};
