import { existsSync } from "node:fs";
import path from "node:path";
import type { EventStore } from "@skein/db";
import {
  ConflictError,
  NotFoundError,
  type ProjectId,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import type { OrchestratorCommands, PurgeInput, PurgeResult } from "@skein/contract";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CommandGate } from "../commands/command-gate.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import type { Logger } from "../logger.ts";
import { forkPointCommit, holdsUncapturedWork } from "../parallel/worktree-hygiene.ts";
import { threadRows } from "../../read-models/thread-pages.ts";

/** How long a deleted thread keeps its worktree and checkpoint refs (the undo window): 7 days. */
export const DEFAULT_PURGE_GRACE_MS = 7 * 24 * 60 * 60_000;

type Deps = {
  gate: CommandGate;
  repo: AggregateRepository;
  store: EventStore;
  checkpoints: CheckpointService;
  dataDir: string;
  now: () => Date;
  log: Logger;
  requireThread: (threadId: ThreadId) => Promise<unknown>;
  /** The grace period when a purge names none. */
  graceMs?: number;
};

type Commands = Pick<OrchestratorCommands, "deleteThread" | "deleteProject" | "purgeDeleted">;

/**
 * Issue 33: delete is soft first (the thread leaves the lists and takes no work), and a purge
 * past the grace period removes what it left on disk: its worktree and its checkpoint refs.
 * Each thread's purge runs under an effect claim, so of two instances (or two sweeps) only one
 * removes anything and one `ThreadPurged` is appended.
 */
export function threadDeleteCommands(deps: Deps): Commands {
  const { gate, repo, store, log } = deps;

  const purgeOne = async (
    threadId: ThreadId,
    input: PurgeInput,
  ): Promise<PurgeResult["purged"][number] | { kept: string } | null> =>
    gate.claims.exclusive(`purge:${threadId}`, async () => {
      // Read again under the claim: whoever held it before may have purged already.
      const state = await repo.refreshThread(threadId);
      if (!state.thread?.deletedAt || state.purgedAt) return null;
      const thread = state.thread;
      const project = await repo.project(thread.projectId);
      const root = project.project?.workspaceRoot ?? null;
      const worktree = root ? await ownedWorktree(deps.checkpoints, root, state) : null;
      if (
        worktree &&
        !input.force &&
        (await holdsUncapturedWork(hygiene(deps), state, thread.worktreePath!))
      ) {
        return { kept: "its worktree holds changes no checkpoint captured (force to remove)" };
      }
      if (input.dryRun) return { threadId, worktreePath: worktree, refsDeleted: 0 };
      if (worktree && root) {
        const repoStore = await deps.checkpoints.storeFor(root);
        const branch = `skein/${threadId}`;
        // The fork's branch goes only while it still points at its fork point: a commit on it
        // (a git finish) is the person's, and stays.
        const forkPoint = await forkPointCommit(hygiene(deps), state, thread.worktreePath!);
        const untouched =
          forkPoint !== null && (await repoStore.branchCommit(branch)) === forkPoint;
        await repoStore.removeWorktree({
          worktreePath: worktree,
          ...(untouched ? { deleteBranch: branch } : {}),
        });
      }
      // Worktrees share their repository's refs; a plain folder's live in its shadow store.
      const refsDeleted =
        root && existsSync(root)
          ? await (await deps.checkpoints.storeFor(root)).deleteThreadRefs(threadId)
          : 0;
      await repo.execute({
        type: "PurgeThread",
        data: { threadId, worktreePath: worktree, refsDeleted },
      });
      log.info({ threadId, refsDeleted, worktree }, "deleted thread purged");
      return { threadId, worktreePath: worktree, refsDeleted };
    });

  return {
    // A sub-agent's child thread belongs to its parent's work and goes with it; a fork or a
    // promoted thread is the person's own and stays.
    deleteThread: (input) =>
      gate.run("thread.delete", input, async (command) => {
        await deps.requireThread(input.threadId);
        const children = await subagentChildrenOf(store, input.threadId);
        for (const threadId of [input.threadId, ...children]) {
          const state = await repo.thread(threadId);
          if (state.activeRunId && !state.thread?.deletedAt) {
            throw new ConflictError(
              `thread "${state.thread?.title ?? threadId}" has a run in progress: interrupt it (or wait for it to end), then delete the thread`,
            );
          }
        }
        // Children first: a crash before the thread's own delete leaves a retry all of it to do.
        for (const childId of children) {
          await repo.execute({ type: "DeleteThread", data: { threadId: childId } });
        }
        const result = await repo.execute(
          { type: "DeleteThread", data: { threadId: input.threadId } },
          command.answer({}),
        );
        return { sequence: result.sequence };
      }),

    deleteProject: (input) =>
      gate.run("project.delete", input, async (command) => {
        const project = await repo.project(input.projectId);
        if (!project.project) throw new NotFoundError("project", input.projectId);
        const threads = await threadsOf(store, input.projectId);
        // Refused as a whole, before any thread is deleted: half a deleted project helps no one.
        for (const threadId of threads) {
          const state = await repo.thread(threadId);
          if (state.activeRunId && !state.thread?.deletedAt) {
            throw new ConflictError(
              `thread "${state.thread?.title ?? threadId}" of this project has a run in progress: interrupt it (or wait for it to end), then delete the project`,
            );
          }
        }
        for (const threadId of threads) {
          const state = await repo.thread(threadId);
          if (state.thread && !state.thread.deletedAt) {
            await repo.execute({ type: "DeleteThread", data: { threadId } });
          }
        }
        const result = await repo.execute(
          { type: "DeleteProject", data: { projectId: input.projectId } },
          command.answer({ threadsDeleted: threads.length }),
        );
        return {
          ...(result.receipt as { threadsDeleted: number }),
          sequence: result.sequence,
        };
      }),

    async purgeDeleted(input = {}) {
      const grace = input.graceMs ?? deps.graceMs ?? DEFAULT_PURGE_GRACE_MS;
      const cutoff = deps.now().getTime() - grace;
      const result: PurgeResult = { purged: [], kept: [] };
      for await (const row of threadRows(store, ["deleted"])) {
        const shell = row.data as { id: ThreadId; deletedAt?: string | null } | null;
        if (!shell?.deletedAt || Date.parse(shell.deletedAt) > cutoff) continue;
        try {
          const outcome = await purgeOne(shell.id, input);
          if (outcome === null) continue;
          if ("kept" in outcome) result.kept.push({ threadId: shell.id, reason: outcome.kept });
          else result.purged.push(outcome);
        } catch (error) {
          // One thread's failure (a folder gone read-only) leaves it for the next sweep.
          log.warn({ err: error, threadId: shell.id }, "deleted thread could not be purged");
          result.kept.push({ threadId: shell.id, reason: reasonOf(error) });
        }
      }
      return result;
    },
  };
}

/**
 * The thread's own worktree as git lists it (whichever instance made it, under its data dir):
 * named by the thread id and holding the thread's workspace. Null when it has none (left).
 */
async function ownedWorktree(
  checkpoints: CheckpointService,
  root: string,
  state: ThreadState,
): Promise<string | null> {
  const workspace = state.thread?.worktreePath;
  if (!workspace || !existsSync(root)) return null;
  const store = await checkpoints.storeFor(root);
  if (store.mode !== "repo") return null;
  for (const entry of await store.listWorktrees()) {
    const rel = path.relative(entry.path, workspace);
    const inside = rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
    if (path.basename(entry.path) === state.thread!.id && inside) return entry.path;
  }
  return null;
}

function hygiene(deps: Deps) {
  const { store, repo, checkpoints, dataDir, now, log } = deps;
  return { store, repo, checkpoints, dataDir, now, log };
}

async function threadsOf(store: EventStore, projectId: ProjectId): Promise<ThreadId[]> {
  const ids: ThreadId[] = [];
  for await (const row of threadRows(store, ["active", "archived", "deleted"], projectId)) {
    ids.push(row.id as ThreadId);
  }
  return ids;
}

/** Live sub-agent child threads of a thread (their lineage names it; not deleted yet). */
async function subagentChildrenOf(store: EventStore, threadId: ThreadId): Promise<ThreadId[]> {
  const { data } = await store.snapshot((q) => q.subagentChildren(threadId));
  return data as ThreadId[];
}

function reasonOf(error: unknown): string {
  return `the purge failed: ${error instanceof Error ? error.message : String(error)}`;
}
