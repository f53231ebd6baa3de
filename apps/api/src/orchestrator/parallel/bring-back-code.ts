import {
  latestStablePoint,
  MergeConflictError,
  NotFoundError,
  PreconditionFailedError,
  type CheckpointId,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import type { BringBackCode, CodeBroughtBack } from "@skein/contract";

type Deps = { repo: AggregateRepository; checkpoints: CheckpointService };

/**
 * B9: applies a fork's code to the thread's workspace, or refuses with nothing changed.
 *
 * Three trees meet in the object database: the fork point (base), the workspace now (ours) and
 * the fork's latest stable checkpoint (theirs; the same point the conversation delta ends at, T8).
 * Conflicts are a MergeConflictError listing the files, before a single file is written.
 *
 * The workspace must equal the thread's latest checkpoint: that checkpoint is then exactly the
 * state before the merge, and rolling back to it undoes the merge. Changes made since would not
 * be undone by it (nor survive it), so such a workspace is refused rather than mixed in.
 *
 * `precheck` runs after every refusal that concerns files and before anything is written: the
 * caller validates the command it will record, so a refused command changes nothing on disk.
 */
export async function bringBackCode(
  deps: Deps,
  target: ThreadState,
  forkId: ThreadId,
  mode: Exclude<BringBackCode, "none">,
  precheck: () => void,
): Promise<CodeBroughtBack> {
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
  const [base, theirs, before] = await Promise.all([
    store.checkpointTree(baseRef),
    store.checkpointTree(theirsRef),
    store.checkpointTree(undoRef),
  ]);
  const ours = await store.snapshotTree(before);
  if (ours !== before) {
    const changed = await store.changedFiles(before, ours);
    throw new PreconditionFailedError(
      `the workspace changed since checkpoint ${undoId} (${changed.map((f) => f.path).join(", ")}); ` +
        "finish or undo those changes before bringing code back, so the merge can be undone",
    );
  }
  const merged = await store.mergeTrees({ base, ours, theirs });
  if (merged.conflicts.length > 0) {
    throw new MergeConflictError(
      `bringing ${forkId} back conflicts with this workspace in ${merged.conflicts.length} file(s): ${merged.conflicts.join(", ")}`,
      merged.conflicts,
    );
  }
  precheck();
  const files = await store.restoreTree(merged.tree, ours);
  return {
    mode,
    undoCheckpointId: undoId!,
    files: files.map((f) => ({
      path: f.path,
      status: f.status,
      additions: f.additions,
      deletions: f.deletions,
    })),
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
