import { existsSync } from "node:fs";
import type { ThreadState } from "@skein/domain";
import type { CheckpointStore } from "@skein/checkpoints";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import { forkPointCheckpointId } from "./bring-back-code.ts";

export type ForkReadDeps = { repo: AggregateRepository; checkpoints: CheckpointService };

/** The fork's worktree if it is still there; one hygiene removed reads as none (B9). */
export function liveWorktree(fork: ThreadState): string | null {
  const path = fork.thread?.worktreePath;
  return path && existsSync(path) ? path : null;
}

/**
 * The two trees a fork's compare reads: the fork point (the checkpoint its worktree was checked
 * out at) and the worktree as it is now, so a fork still running shows its edits so far. Nothing
 * is recorded and no ref is written. Null when the fork point has no ready checkpoint.
 */
export async function forkWorktreeTrees(
  deps: ForkReadDeps,
  fork: ThreadState,
  worktree: string,
): Promise<{ store: CheckpointStore; base: string; now: string } | null> {
  const point = fork.inheritance?.sourcePoint;
  if (!point) return null;
  const source = await deps.repo.thread(point.threadId);
  const checkpointId = forkPointCheckpointId(source, fork);
  const checkpoint = checkpointId ? source.checkpoints.get(checkpointId) : undefined;
  if (checkpoint?.status !== "ready") return null;
  const store = await deps.checkpoints.storeFor(worktree);
  const base = await store.checkpointTree(checkpoint.ref);
  return { store, base, now: await store.snapshotTree(base) };
}
