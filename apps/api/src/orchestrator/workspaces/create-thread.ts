import type { OrchestratorCommands } from "@skein/contract";
import {
  DEFAULT_THREAD_TITLE,
  type IdSource,
  NotFoundError,
  PreconditionFailedError,
  type Project,
  type ProviderKind,
  projectSettingsOf,
  type ThreadId,
  type ThreadWorkspaceMode,
} from "@skein/domain";
import type { CommandContext } from "../commands/command-gate.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import { SwappedFolderError } from "../../workspace/held-path.ts";
import { insideGitRepository } from "./git-folder.ts";
import {
  prepareThreadWorktree,
  type ThreadWorktreeDeps,
  type WorktreePlan,
} from "./thread-worktree.ts";

type CreateInput = Parameters<OrchestratorCommands["createThread"]>[0] & {
  provider: ProviderKind;
};
type CreateAnswer = { threadId: ThreadId; sequence: number };

/**
 * `thread.create` (issue 26, B14): in a git project a thread gets its own worktree unless it (or
 * the project's `threadWorkspace`) says `local`. With a worktree, the thread's id and plan are
 * recorded as the command's intent before anything is checked out, and the append recording the
 * worktree answers the command id: a retry (or the restart after a crash) finishes that same
 * thread instead of making another.
 */
export async function createThread(
  deps: ThreadWorktreeDeps & { ids: IdSource },
  command: CommandContext,
  input: CreateInput,
): Promise<CreateAnswer> {
  const project = (await deps.repo.project(input.projectId)).project;
  if (!project) throw new NotFoundError("project", input.projectId);
  const mode = input.workspace ?? projectSettingsOf(project).threadWorkspace;
  const plan = await planThreadWorktree(deps.checkpoints, project, mode, input.workspace);
  const create = (threadId: ThreadId) => ({
    type: "CreateThread" as const,
    data: {
      threadId,
      projectId: input.projectId,
      title: input.title ?? DEFAULT_THREAD_TITLE,
      defaultProvider: input.provider,
      modelSelection: {
        model: input.model ?? null,
        ...(input.effort ? { effort: input.effort } : {}),
      },
      ...(input.runtimeMode ? { runtimeMode: input.runtimeMode } : {}),
      ...(input.interactionMode ? { interactionMode: input.interactionMode } : {}),
      ...(input.agentName ? { agentName: input.agentName } : {}),
    },
  });
  if (!plan) {
    const threadId = deps.ids.next("thread");
    const result = await deps.repo.execute(create(threadId), command.answer({ threadId }));
    return { ...(result.receipt as { threadId: ThreadId }), sequence: result.sequence };
  }
  const decided = await command.intend({ threadId: deps.ids.next("thread"), worktree: plan });
  if (!(await deps.repo.thread(decided.threadId)).thread) {
    await deps.repo.execute(create(decided.threadId));
  }
  const answer = { threadId: decided.threadId };
  const result = await prepareThreadWorktree(
    deps,
    decided.threadId,
    decided.worktree,
    project,
    command.answer(answer),
  );
  return { ...(result.receipt as typeof answer), sequence: result.sequence };
}

/**
 * A worktree at the project's checked-out commit, or null for the project's folder itself. Asked
 * for explicitly, a worktree that cannot be made is refused in words before anything is written;
 * by the project's default, a folder that is not a git repository (or has no commit yet) simply
 * works in place.
 */
async function planThreadWorktree(
  checkpoints: CheckpointService,
  project: Project,
  mode: ThreadWorkspaceMode,
  asked: ThreadWorkspaceMode | undefined,
): Promise<WorktreePlan | null> {
  if (mode === "local") return null;
  const root = project.workspaceRoot;
  const explicit = asked === "worktree";
  // Cheap look first: a plain folder gets no store (no shadow git dir) just for this.
  const store = insideGitRepository(root)
    ? await checkpoints.storeFor(root).catch((error: unknown) => {
        if (error instanceof SwappedFolderError) throw error;
        return null;
      })
    : null;
  if (store?.mode !== "repo") {
    if (!explicit) return null;
    throw new PreconditionFailedError(
      `a thread worktree needs a git repository, and ${root} is not one; create the thread with workspace "local" to work in the folder itself`,
    );
  }
  const head = await store.headCommit();
  if (!head) {
    if (!explicit) return null;
    throw new PreconditionFailedError(
      `a thread worktree starts at the repository's checked-out commit, and ${root} has no commit yet; commit once, or create the thread with workspace "local"`,
    );
  }
  return { start: { commit: head }, cwd: root };
}
