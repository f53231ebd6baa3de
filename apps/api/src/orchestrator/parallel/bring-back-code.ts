import {
  latestStablePoint,
  MergeConflictError,
  NotFoundError,
  PreconditionFailedError,
  type CheckpointId,
  type RunId,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import type { BringBackCode, CodeBroughtBack } from "@skein/contract";

/**
 * Everything a bring-back will write, decided before anything is written and recorded as the
 * command's intent: a crash mid-way is finished (or undone) from this alone (bring-back-apply.ts).
 */
export type CodePlan = CodeBroughtBack & {
  cwd: string;
  /** The workspace's tree before (the undo checkpoint's content) and after the bring-back. */
  before: string;
  merged: string;
};

/** `merge` cannot hold here (detached HEAD, uncommitted changes): `squash` still can. */
export class MergeRefusedError extends PreconditionFailedError {
  constructor(reason: string) {
    super(`code "merge" needs a clean checkout on a branch: ${reason}; use code "squash" instead`);
    this.name = "MergeRefusedError";
  }
}

type Deps = { repo: AggregateRepository; checkpoints: CheckpointService };

/**
 * `keepChanges`: the workspace may hold changes made since the thread's latest checkpoint (the
 * person's); they are merged with, not refused, because the bring-back is undone by a safety
 * checkpoint of this very workspace rather than by rolling back to that checkpoint (code only).
 */
export type PlanOptions = { keepChanges?: boolean };

/**
 * B9: decides how a fork's code lands in the thread's workspace, or refuses with nothing changed.
 *
 * Three trees meet in the object database: the fork point (base), the workspace now (ours) and
 * the fork's latest stable checkpoint (theirs; the same point the conversation delta ends at, T8).
 * Conflicts are a MergeConflictError listing the files, before a single file is written.
 *
 * The workspace must equal the thread's latest checkpoint: that checkpoint is then exactly the
 * state before the merge, and rolling back to it undoes the merge. Changes made since would not
 * be undone by it (nor survive it), so such a workspace is refused rather than mixed in.
 *
 * `merge` writes no fork branch into the user's history (its checkpoint commits are Skein's):
 * one commit holds the fork's net change on top of the user's HEAD, and a merge commit joins it,
 * so `git log` shows one merge naming the fork thread. It is planned from the same three trees
 * (the user's commit outside a subfolder workspace), so it conflicts exactly when squash would.
 */
export async function planBringBack(
  deps: Deps,
  target: ThreadState,
  forkId: ThreadId,
  mode: Exclude<BringBackCode, "none">,
  runId: RunId | null,
  options: PlanOptions = {},
): Promise<CodePlan> {
  // The merge commit names the run that brought the code (undoing that run undoes the merge).
  if (mode === "merge" && !runId) throw new Error('code "merge" needs the run that brings it');
  const threadId = target.thread!.id;
  const fork = await deps.repo.thread(forkId);
  if (!fork.thread) throw new NotFoundError("thread", forkId);
  if (fork.thread.lineage?.parentThreadId !== threadId || !fork.inheritance) {
    throw new PreconditionFailedError(`thread ${forkId} is not a fork of ${threadId}`);
  }
  const baseRef = readyRef(target, forkPointCheckpointId(target, fork), "the fork point");
  const theirsRef = readyRef(fork, latestStablePoint(fork).point.checkpointId, "the fork's work");
  const undoId = target.lastRootCheckpointId;
  const undoRef = readyRef(target, undoId, `thread ${threadId}'s latest run`);
  const project = await deps.repo.project(target.thread!.projectId);
  const cwd = target.thread!.worktreePath ?? project.project?.workspaceRoot;
  if (!cwd) throw new PreconditionFailedError(`thread ${threadId} has no workspace`);
  const store = await deps.checkpoints.storeFor(cwd);
  if (store.mode !== "repo") {
    throw new PreconditionFailedError(`bringing code back needs a git repository; ${cwd} is not`);
  }
  const head = mode === "merge" ? await store.branchHead() : null;
  if (head && !head.branch) throw new MergeRefusedError(`${cwd} has a detached HEAD`);
  if (head && !head.commit) throw new MergeRefusedError(`${cwd} has no commit yet`);
  if (head && !head.clean) throw new MergeRefusedError(`${cwd} has uncommitted changes`);
  let [base, theirs] = await Promise.all([
    store.checkpointTree(baseRef),
    store.checkpointTree(theirsRef),
  ]);
  const before = await store.checkpointTree(undoRef);
  const ours = await store.snapshotTree(before);
  const stray = options.keepChanges ? [] : await store.changedFiles(before, ours);
  if (stray.length > 0) {
    throw new PreconditionFailedError(
      `the workspace changed since checkpoint ${undoId} (${stray.map((f) => f.path).join(", ")}); ` +
        "finish or undo those changes before bringing code back, so the merge can be undone",
    );
  }
  let oursTree = ours;
  if (head?.commit) {
    // Checkpoints hold only the workspace's truth: outside a subfolder they keep whatever the
    // first capture was seeded with. Grafted onto HEAD, the merge commit changes the workspace
    // and nothing else.
    [base, theirs] = await Promise.all([
      store.graftWorkspace(head.commit, base),
      store.graftWorkspace(head.commit, theirs),
    ]);
    oursTree = await store.graftWorkspace(head.commit, head.commit);
  }
  const merged = await store.mergeTrees({ base, ours: oursTree, theirs });
  if (merged.conflicts.length > 0) {
    throw new MergeConflictError(
      `bringing ${forkId} back conflicts with this workspace in ${merged.conflicts.length} file(s): ${merged.conflicts.join(", ")}`,
      merged.conflicts,
    );
  }
  const files = (await store.changedFiles(ours, merged.tree)).map((f) => ({
    path: f.path,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
  }));
  const commits =
    head?.branch && head.commit && runId
      ? await store.planBranchMerge({
          branch: head.branch,
          head: head.commit,
          tree: merged.tree,
          workMessage: `Work of fork thread "${fork.thread.title}" (${forkId})`,
          mergeMessage: `Merge fork thread "${fork.thread.title}" (${forkId})`,
          runId,
        })
      : undefined;
  return {
    mode,
    undoCheckpointId: undoId!,
    files,
    ...(commits ? { commits } : {}),
    cwd,
    before: ours,
    merged: merged.tree,
  };
}

/** The checkpoint a fork's worktree was checked out at: its point's, or its point run's. */
export function forkPointCheckpointId(source: ThreadState, fork: ThreadState): CheckpointId | null {
  const point = fork.inheritance?.sourcePoint;
  if (!point) return null;
  return (
    point.checkpointId ?? (point.runId ? source.runs.get(point.runId)?.checkpointId : null) ?? null
  );
}

function readyRef(state: ThreadState, id: CheckpointId | null | undefined, what: string): string {
  const checkpoint = id ? state.checkpoints.get(id) : undefined;
  if (checkpoint?.status !== "ready") {
    throw new PreconditionFailedError(`${what} has no ready checkpoint to bring code back from`);
  }
  return checkpoint.ref;
}
