import path from "node:path";
import {
  type ForkSourcePointSpec,
  PreconditionFailedError,
  resolveForkPoint,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import type { AggregateRepository } from "./aggregate-repository.ts";
import type { CheckpointService } from "./checkpoint-service.ts";

export type ForkWorkspacePlan = { ref: string; cwd: string } | null;

/**
 * Decides, before the fork is recorded, whether it gets its own git worktree (issue 6): asked for
 * explicitly, or by default when the workspace is a git repository and the source point has a
 * checkpoint to check out. An explicit request that cannot hold fails before anything is written.
 */
export async function planForkWorkspace(
  repo: AggregateRepository,
  checkpoints: CheckpointService,
  source: ThreadState,
  spec: ForkSourcePointSpec,
  requested: boolean | undefined,
): Promise<ForkWorkspacePlan> {
  if (requested === false) return null;
  const project = await repo.project(source.thread!.projectId);
  const cwd = source.thread!.worktreePath ?? project.project?.workspaceRoot;
  if (!cwd) return null;
  const resolved = resolveForkPoint(source, spec);
  const checkpointId = resolved.point.checkpointId ?? resolved.run?.checkpointId ?? null;
  const checkpoint = checkpointId ? source.checkpoints.get(checkpointId) : undefined;
  const store = await checkpoints.storeFor(cwd).catch(() => null);
  const usable = store?.mode === "repo" && checkpoint?.status === "ready";
  if (usable) return { ref: checkpoint.ref, cwd };
  if (requested) {
    throw new PreconditionFailedError(
      store?.mode !== "repo"
        ? `an isolated workspace needs a git repository; ${cwd} is not one`
        : "an isolated workspace needs a source point with a ready checkpoint",
    );
  }
  return null;
}

/** Checks the fork's worktree out at the source checkpoint and records it on the fork. */
export async function createForkWorkspace(
  repo: AggregateRepository,
  checkpoints: CheckpointService,
  dataDir: string,
  forkId: ThreadId,
  plan: NonNullable<ForkWorkspacePlan>,
): Promise<void> {
  const store = await checkpoints.storeFor(plan.cwd);
  const worktree = await store.createIsolatedWorktree({
    ref: plan.ref,
    branch: `skein/${forkId}`,
    path: path.join(dataDir, "worktrees", forkId),
  });
  await repo.execute({
    type: "UpdateThreadSettings",
    data: { threadId: forkId, branch: worktree.branch, worktreePath: worktree.worktreePath },
  });
}
