import {
  overlapWarnings,
  PreconditionFailedError,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import { runCheckCommand } from "../commands/check-command.ts";
import { type ForkReadDeps, forkWorktreeTrees, liveWorktree } from "./fork-worktree-trees.ts";
import type { CompareInput, ForkComparison, ForkFileChange, ForkSummary } from "@skein/contract";

type Deps = ForkReadDeps;

/**
 * B9 compare: each fork's latest run and the files its worktree changed since the fork point
 * (read from the worktree as it is now, so a fork still running shows its edits so far), plus
 * overlap warnings between live forks. Nothing is recorded and no ref is written.
 */
export async function compareForks(deps: Deps, input: CompareInput): Promise<ForkComparison> {
  const forks: ForkSummary[] = [];
  for (const threadId of new Set(input.threadIds)) {
    forks.push(await summarize(deps, await deps.repo.thread(threadId), threadId, input));
  }
  const live = forks.filter((f) => !f.archived && f.files !== null);
  const overlaps = overlapWarnings(
    live.map((f) => ({ threadId: f.threadId, files: (f.files ?? []).map((c) => c.path) })),
  );
  return { forks, overlaps };
}

async function summarize(
  deps: Deps,
  fork: ThreadState,
  threadId: ThreadId,
  input: CompareInput,
): Promise<ForkSummary> {
  const thread = fork.thread;
  if (!thread) throw new PreconditionFailedError(`thread ${threadId} does not exist`);
  if (!fork.inheritance) throw new PreconditionFailedError(`thread ${threadId} is not a fork`);
  const latestId = fork.runOrder.at(-1);
  const run = latestId ? fork.runs.get(latestId) : undefined;
  const started = run?.startedAt ? Date.parse(run.startedAt) : null;
  const ended = run?.completedAt ? Date.parse(run.completedAt) : null;
  const worktree = liveWorktree(fork);
  const files = worktree ? await changedSinceForkPoint(deps, fork, worktree) : null;
  const check =
    worktree && input.checkCommand
      ? await runCheckCommand(input.checkCommand, worktree, input.checkTimeoutMs)
      : null;
  return {
    threadId,
    title: thread.title,
    provider: run?.provider ?? null,
    model: run?.model ?? null,
    effort: run?.effort ?? null,
    status: run?.status ?? "idle",
    archived: thread.archivedAt !== null,
    startedAt: run?.startedAt ?? null,
    completedAt: run?.completedAt ?? null,
    durationMs: started !== null && ended !== null ? ended - started : null,
    usage: run?.usage ?? null,
    branch: thread.branch,
    worktreePath: thread.worktreePath,
    files,
    check,
  };
}

async function changedSinceForkPoint(
  deps: Deps,
  fork: ThreadState,
  worktree: string,
): Promise<ForkFileChange[]> {
  const trees = await forkWorktreeTrees(deps, fork, worktree);
  if (!trees) return [];
  const changes = await trees.store.changedFiles(trees.base, trees.now);
  return changes.map((f) => ({
    path: f.path,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
  }));
}
