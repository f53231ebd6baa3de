import { existsSync, readdirSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { worktreeHasChanges } from "@skein/checkpoints";
import type { EventStore } from "@skein/db";
import { latestStablePoint, type ThreadId, type ThreadState } from "@skein/domain";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import { forkPointCheckpointId } from "./bring-back-code.ts";
import { insideGitRepository } from "../workspaces/git-folder.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import type { Logger } from "../logger.ts";
import type { SweepInput, SweepResult, SweptWorktree } from "@skein/contract";

export const DEFAULT_WORKTREE_GRACE_MS = 24 * 60 * 60_000;

type Verdict = SweptWorktree["reason"];

type Deps = {
  store: EventStore;
  repo: AggregateRepository;
  checkpoints: CheckpointService;
  dataDir: string;
  now: () => Date;
  log: Logger;
};

/**
 * B9 worktree hygiene. Skein owns exactly the worktrees under `<dataDir>/worktrees/<threadId>`
 * of each project's repository; nothing else is looked at. One is removed (with its branch
 * `skein/<threadId>` when that still points at the fork point) when, past the grace period:
 * - its fork is archived, or
 * - its fork was brought back up to its latest checkpoint (a merge-back from that point), or
 * - it is an orphan: no thread records it (a fork that died before recording its worktree).
 * A worktree holding work no checkpoint captured is kept unless `force`. Only `git worktree
 * remove/prune` and `branch -D` run: no object is ever deleted (no `gc`, no `prune`), so every
 * checkpoint of a removed fork stays restorable from its hidden refs.
 */
export async function sweepWorktrees(deps: Deps, input: SweepInput = {}): Promise<SweepResult> {
  const grace = input.graceMs ?? DEFAULT_WORKTREE_GRACE_MS;
  const cutoff = deps.now().getTime() - grace;
  const owned = path.resolve(deps.dataDir, "worktrees");
  const result: SweepResult = { removed: [], kept: [] };
  // No fork ever got a worktree here: nothing to look at (and no project store to open).
  if (!existsSync(owned) || readdirSync(owned).length === 0) return result;
  const { data: projects } = await deps.store.snapshot((q) => q.list("projects"));
  const roots = new Set<string>();
  for (const row of projects) {
    const root = (row.data as { workspaceRoot?: string } | null)?.workspaceRoot;
    if (root && insideGitRepository(root)) roots.add(root);
  }
  const seen = new Set<string>();
  for (const root of roots) {
    const store = await deps.checkpoints.storeFor(root).catch(() => null);
    if (store?.mode !== "repo") continue;
    for (const entry of await store.listWorktrees()) {
      const resolved = path.resolve(entry.path);
      if (path.dirname(resolved) !== owned || seen.has(resolved)) continue;
      seen.add(resolved);
      const threadId = path.basename(resolved) as ThreadId;
      const verdict = await judge(deps, threadId, resolved, cutoff, input.force === true);
      if (typeof verdict === "string") {
        result.kept.push({ path: resolved, threadId, reason: verdict });
        continue;
      }
      const branch = `skein/${threadId}`;
      const deleteBranch =
        entry.branch === branch &&
        verdict.forkPointCommit !== null &&
        (await store.branchCommit(branch)) === verdict.forkPointCommit;
      if (!input.dryRun) {
        await store.removeWorktree({
          worktreePath: resolved,
          ...(deleteBranch ? { deleteBranch: branch } : {}),
        });
        deps.log.info(
          { threadId, path: resolved, reason: verdict.reason },
          "fork worktree removed",
        );
      }
      result.removed.push({
        path: resolved,
        threadId,
        reason: verdict.reason,
        branchDeleted: deleteBranch,
      });
    }
    if (!input.dryRun) await store.pruneWorktrees().catch(() => undefined);
  }
  return result;
}

type Removal = { reason: Verdict; forkPointCommit: string | null };

/** Why a worktree stays (a sentence), or why it goes. */
async function judge(
  deps: Deps,
  threadId: ThreadId,
  worktree: string,
  cutoff: number,
  force: boolean,
): Promise<string | Removal> {
  const fork = await deps.repo.thread(threadId).catch(() => null);
  // The fork's workspace is the worktree itself, or the project's subfolder inside it.
  const workspace = fork?.thread?.worktreePath ? path.resolve(fork.thread.worktreePath) : null;
  if (!fork?.thread || !workspace || !isWithin(worktree, workspace)) {
    const changedAt = await stat(worktree).then(
      (s) => s.mtimeMs,
      () => 0,
    );
    if (changedAt > cutoff) return "orphan within the grace period";
    if (!force && (await worktreeHasChanges(worktree))) return "orphan with uncommitted changes";
    return { reason: "orphan", forkPointCommit: null };
  }
  if (fork.activeRunId) return "a run is active";
  const reason = await retiredBecause(deps, fork, cutoff);
  if (!reason) return "live fork";
  const outsideWorkspace =
    workspace !== worktree &&
    (await worktreeHasChanges(worktree, path.relative(worktree, workspace)));
  if (!force && (outsideWorkspace || (await holdsUncapturedWork(deps, fork, workspace)))) {
    return "changes no checkpoint captured (force to remove)";
  }
  return { reason, forkPointCommit: await forkPointCommit(deps, fork, workspace) };
}

async function retiredBecause(
  deps: Deps,
  fork: ThreadState,
  cutoff: number,
): Promise<Verdict | null> {
  const archivedAt = fork.thread!.archivedAt;
  if (archivedAt) return Date.parse(archivedAt) <= cutoff ? "archived" : null;
  const parentId = fork.thread!.lineage?.parentThreadId;
  const latest = latestStablePoint(fork).point.checkpointId;
  if (!parentId || !latest) return null;
  const parent = await deps.repo.thread(parentId);
  for (const transfer of parent.transfers.values()) {
    if (
      transfer.type === "merge_back" &&
      transfer.sourceThreadId === fork.thread!.id &&
      transfer.sourcePoint.checkpointId === latest &&
      Date.parse(transfer.createdAt) <= cutoff
    ) {
      return "merged";
    }
  }
  return null;
}

/** The worktree differs from the fork's latest checkpoint (or, before any, its fork point). */
export async function holdsUncapturedWork(deps: Deps, fork: ThreadState, worktree: string) {
  try {
    const id = latestStablePoint(fork).point.checkpointId;
    const checkpoint = id ? fork.checkpoints.get(id) : undefined;
    const store = await deps.checkpoints.storeFor(worktree);
    if (checkpoint?.status !== "ready") return worktreeHasChanges(worktree);
    const captured = await store.checkpointTree(checkpoint.ref);
    return (await store.snapshotTree(captured)) !== captured;
  } catch {
    return true;
  }
}

export async function forkPointCommit(deps: Deps, fork: ThreadState, worktree: string) {
  const parentId = fork.inheritance?.sourcePoint.threadId;
  if (!parentId) return null;
  const source = await deps.repo.thread(parentId);
  const id = forkPointCheckpointId(source, fork);
  const checkpoint = id ? source.checkpoints.get(id) : undefined;
  if (checkpoint?.status !== "ready") return null;
  const store = await deps.checkpoints.storeFor(worktree);
  return store.checkpointCommit(checkpoint.ref).catch(() => null);
}

function isWithin(root: string, inner: string): boolean {
  const rel = path.relative(root, inner);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
