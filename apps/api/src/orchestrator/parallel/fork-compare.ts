import { existsSync } from "node:fs";
import {
  type OverlapWarning,
  overlapWarnings,
  PreconditionFailedError,
  type ProviderKind,
  type RunStatus,
  type ThreadId,
  type ThreadState,
  type TokenUsage,
} from "@skein/domain";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import { forkPointCheckpointId } from "./bring-back-code.ts";
import { type CheckResult, runCheckCommand } from "../commands/check-command.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";

export type CompareInput = {
  threadIds: ThreadId[];
  /** Run in each fork's worktree (e.g. `pnpm test`); its result is reported per fork. */
  checkCommand?: string;
  checkTimeoutMs?: number;
};

export type ForkFileChange = { path: string; status: string; additions: number; deletions: number };

export type ForkSummary = {
  threadId: ThreadId;
  title: string;
  /** The fork's latest run: its provider and model, status, timing and usage. */
  provider: ProviderKind | null;
  model: string | null;
  status: RunStatus | "idle";
  archived: boolean;
  startedAt: string | null;
  completedAt: string | null;
  durationMs: number | null;
  usage: TokenUsage | null;
  branch: string | null;
  worktreePath: string | null;
  /** What the fork's worktree holds now against the fork point; null without one (or removed). */
  files: ForkFileChange[] | null;
  check: CheckResult | null;
};

export type ForkComparison = {
  forks: ForkSummary[];
  /** Files two or more live (not archived) forks changed. */
  overlaps: OverlapWarning[];
};

type Deps = { repo: AggregateRepository; checkpoints: CheckpointService };

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
  // A worktree hygiene removed reads as none: its work stays in the fork's checkpoints.
  const worktree =
    thread.worktreePath && existsSync(thread.worktreePath) ? thread.worktreePath : null;
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
  const point = fork.inheritance!.sourcePoint;
  const source = await deps.repo.thread(point.threadId);
  const checkpointId = forkPointCheckpointId(source, fork);
  const checkpoint = checkpointId ? source.checkpoints.get(checkpointId) : undefined;
  if (checkpoint?.status !== "ready") return [];
  const store = await deps.checkpoints.storeFor(worktree);
  const base = await store.checkpointTree(checkpoint.ref);
  const now = await store.snapshotTree(base);
  const changes = await store.changedFiles(base, now);
  return changes.map((f) => ({
    path: f.path,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
  }));
}
