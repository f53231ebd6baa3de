import { SwappedFolderError } from "../../workspace/held-path.ts";
import {
  type ContextTransferId,
  type DomainEvent,
  type ForkSourcePointSpec,
  type IdSource,
  PreconditionFailedError,
  resolveForkPoint,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import type { ForkSiblings } from "./fork-sibling.ts";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import { prepareThreadWorktree, type ThreadWorktreeDeps } from "../workspaces/thread-worktree.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import type { CommandContext } from "../commands/command-gate.ts";

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
  // Without a ready checkpoint there is nothing to check out: a default fork needs no look at
  // the folder (a realpath and a git store on every fork).
  if (!requested && checkpoint?.status !== "ready") return null;
  const store = await checkpoints.storeFor(cwd).catch((error: unknown) => {
    if (error instanceof SwappedFolderError) throw error;
    return null;
  });
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

type ForkDeps = ThreadWorktreeDeps & { ids: IdSource; siblings: ForkSiblings };

type ForkInput = {
  threadId: ThreadId;
  sourcePoint: ForkSourcePointSpec;
  title?: string;
  /** Untitled: which fork at this point it is (a fan-out numbers its own); counted when absent. */
  sibling?: number;
  isolatedWorkspace?: boolean;
  /** B19: the outside agent making the fork. */
  agentName?: string;
};

type ForkAnswer = { threadId: ThreadId; transferId: ContextTransferId; sequence: number };

/**
 * Records a fork and, when it gets one, its isolated worktree (B3): the fork's id and workspace
 * plan are recorded as the command's intent before the worktree exists, and the append that
 * records the worktree answers the command id. A retry after a failure (or the restart after a
 * crash) finds the intent and finishes that same fork instead of creating another.
 */
export async function forkThread(
  deps: ForkDeps,
  command: CommandContext,
  source: ThreadState,
  input: ForkInput,
): Promise<ForkAnswer> {
  const sibling = input.title
    ? undefined
    : (input.sibling ?? (await deps.siblings.next(source, input.sourcePoint)));
  const forkCommand = (threadId: ThreadId) => ({
    type: "ForkThread" as const,
    data: {
      threadId,
      sourceThreadId: input.threadId,
      sourcePoint: input.sourcePoint,
      ...(input.title ? { title: input.title } : {}),
      ...(sibling !== undefined ? { sibling } : {}),
      ...(input.agentName
        ? { createdBy: "agent" as const, agentName: input.agentName }
        : { createdBy: "user" as const }),
      relationship: "fork" as const,
    },
  });
  const planned = await planForkWorkspace(
    deps.repo,
    deps.checkpoints,
    source,
    input.sourcePoint,
    input.isolatedWorkspace,
  );
  if (!planned) {
    const threadId = deps.ids.next("thread");
    const result = await deps.repo.execute(
      forkCommand(threadId),
      command.answer((events) => ({ threadId, transferId: forkTransferOf(events) })),
    );
    return { ...(result.receipt as Omit<ForkAnswer, "sequence">), sequence: result.sequence };
  }
  const plan = await command.intend({ threadId: deps.ids.next("thread"), workspace: planned });
  if (!(await deps.repo.thread(plan.threadId)).thread) {
    await deps.repo.execute(forkCommand(plan.threadId));
  }
  const fork = await deps.repo.thread(plan.threadId);
  const transfer = [...fork.transfers.values()].find((t) => t.type === "fork");
  if (!transfer) throw new Error(`fork ${plan.threadId} has no fork transfer`);
  const answer = { threadId: plan.threadId, transferId: transfer.id };
  const project = (await deps.repo.project(fork.thread!.projectId)).project;
  if (!project) throw new Error(`fork ${plan.threadId}'s project is gone`);
  const result = await prepareThreadWorktree(
    deps,
    plan.threadId,
    { start: { ref: plan.workspace.ref }, cwd: plan.workspace.cwd },
    project,
    command.answer(answer),
  );
  return { ...(result.receipt as typeof answer), sequence: result.sequence };
}

function forkTransferOf(events: readonly DomainEvent[]): ContextTransferId {
  const forked = events.find((event) => event.type === "ThreadForked");
  if (forked?.type !== "ThreadForked") throw new Error("ForkThread recorded no ThreadForked");
  return forked.data.inheritance.transferId;
}
