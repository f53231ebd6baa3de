import { existsSync } from "node:fs";
import path from "node:path";
import type { EventStore } from "@skein/db";
import { type Project, projectSettingsOf, type ThreadId, type WorkspaceSetup } from "@skein/domain";
import type { AggregateRepository, ExecuteOptions } from "../commands/aggregate-repository.ts";
import type { EffectClaims } from "../commands/effect-claims.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import { copyIntoWorktree } from "./copy-files.ts";
import { freePort, PORT_CLAIM } from "./thread-ports.ts";
import { runtimeEnvOf, type WorktreeSetups } from "./worktree-setup.ts";

/** Where a thread's worktree starts: a checkpoint (a fork) or a commit (a new thread: HEAD). */
export type WorktreeStart = { ref: string } | { commit: string };
/** A worktree decided for a thread: where it starts, and the workspace whose repository holds it. */
export type WorktreePlan = { start: WorktreeStart; cwd: string };

export type ThreadWorktreeDeps = {
  repo: AggregateRepository;
  checkpoints: CheckpointService;
  store: EventStore;
  claims: EffectClaims;
  setups: WorktreeSetups;
  dataDir: string;
};

/**
 * The one path by which a thread (a new one, or a fork) gets its own worktree (issues 6, 26):
 * checks it out on the branch `skein/<threadId>` under `<dataDir>/worktrees/<threadId>` (where
 * the worktree hygiene looks), copies the project's files in (never over one already there),
 * picks the thread's `PORT`, and records all of it in the one append that answers the command.
 * The project's setup script then runs in the background (`WorktreeSetups`). A worktree left at
 * the thread's path by an attempt that died before recording it is the thread's own (nothing ran
 * in it yet): it is removed and checked out afresh.
 */
export async function prepareThreadWorktree(
  deps: ThreadWorktreeDeps,
  threadId: ThreadId,
  plan: WorktreePlan,
  project: Project,
  answer: ExecuteOptions,
) {
  const settings = projectSettingsOf(project);
  const store = await deps.checkpoints.storeFor(plan.cwd);
  const branch = `skein/${threadId}`;
  const target = path.join(deps.dataDir, "worktrees", threadId);
  if (existsSync(target)) {
    await store.removeWorktree({ worktreePath: target, deleteBranch: branch }).catch(() => {});
  }
  const worktree = await store.createIsolatedWorktree({ ...plan.start, branch, path: target });
  // A workspace in a repository's subfolder is that same subfolder inside the worktree: the
  // thread's agent, checkpoints, compare and bring-back all see only the project's files.
  const copied = await copyIntoWorktree(
    project.workspaceRoot,
    worktree.workspacePath,
    settings.copyFiles,
  );
  const setup: WorkspaceSetup = {
    status: settings.setupScript ? "running" : "succeeded",
    copied,
    script: settings.setupScript,
    output: "",
    exitCode: null,
    error: null,
  };
  const record = (port: number | null) =>
    deps.repo.execute(
      {
        type: "UpdateThreadSettings",
        data: {
          threadId,
          branch: worktree.branch,
          worktreePath: worktree.workspacePath,
          workspaceSetup: setup,
          ...(port !== null ? { port } : {}),
        },
      },
      answer,
    );
  const range = settings.portRange;
  // The port is picked and recorded under one claim, so two threads never get the same one.
  const result = range
    ? await deps.claims.exclusive(PORT_CLAIM, async () => record(await freePort(deps.store, range)))
    : await record(null);
  const thread = (await deps.repo.thread(threadId)).thread;
  deps.setups.start({
    threadId,
    cwd: worktree.workspacePath,
    setup,
    env: runtimeEnvOf(thread ?? {}),
  });
  return result;
}
