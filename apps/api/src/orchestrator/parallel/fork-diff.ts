import { PreconditionFailedError, type ThreadId } from "@skein/domain";
import { capPatches, MAX_PATCH_CHARS, MAX_TOTAL_PATCH_CHARS } from "../checkpoints/review-diff.ts";
import { type ForkReadDeps, forkWorktreeTrees, liveWorktree } from "./fork-worktree-trees.ts";
import type { CompareDiff, CompareDiffInput, ForkDiff } from "@skein/contract";

/**
 * B9 side by side: each fork's unified diff since its fork point, of one file or of all, read
 * from the worktree as `compare` reads it (so the counts there and the patches here agree).
 * The forks share one answer's patch budget, so eight forks weigh no more than one review diff.
 */
export async function compareDiff(
  deps: ForkReadDeps,
  input: CompareDiffInput,
): Promise<CompareDiff> {
  const ids = [...new Set(input.threadIds)];
  const limits = {
    perFile: MAX_PATCH_CHARS,
    total: Math.floor(MAX_TOTAL_PATCH_CHARS / ids.length),
  };
  const forks: ForkDiff[] = [];
  for (const threadId of ids) forks.push(await forkDiff(deps, threadId, input.path, limits));
  return { forks };
}

async function forkDiff(
  deps: ForkReadDeps,
  threadId: ThreadId,
  path: string | undefined,
  limits: { perFile: number; total: number },
): Promise<ForkDiff> {
  const fork = await deps.repo.thread(threadId);
  if (!fork.thread) throw new PreconditionFailedError(`thread ${threadId} does not exist`);
  if (!fork.inheritance) throw new PreconditionFailedError(`thread ${threadId} is not a fork`);
  const worktree = liveWorktree(fork);
  if (!worktree) return { threadId, files: null };
  const trees = await forkWorktreeTrees(deps, fork, worktree);
  if (!trees) return { threadId, files: [] };
  // A literal pathspec: a file named `*.ts` is that file, not a glob.
  const paths = path === undefined ? [] : [`:(literal)${path}`];
  const diffs = await trees.store.diffTrees(trees.base, trees.now, paths);
  return { threadId, files: capPatches(diffs, limits) };
}
