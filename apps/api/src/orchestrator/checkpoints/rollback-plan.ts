import {
  type Checkpoint,
  type CheckpointId,
  type CommandId,
  ConflictError,
  decide,
  type IdSource,
  NotFoundError,
  PreconditionFailedError,
  type RollbackScope,
  type RunId,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import {
  type CheckpointStore,
  CheckpointMissingError,
  type PathRestorePlan,
} from "@skein/checkpoints";
import type { RollbackPreview } from "@skein/contract";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CheckpointService } from "./checkpoint-service.ts";
import { capPatches, currentCheckpoint } from "./review-diff.ts";

export type RollbackPlanDeps = {
  repo: AggregateRepository;
  checkpoints: CheckpointService;
  ids: IdSource;
  clock: () => Date;
};

export type RollbackPlan = {
  state: ThreadState;
  checkpoint: Checkpoint;
  scope: RollbackScope;
  cwd: string;
  rolledBackRunIds: RunId[];
  /** Null for scope `conversation`: no file moves. */
  code: { store: CheckpointStore; plan: PathRestorePlan } | null;
};

export const includesCode = (scope: RollbackScope) => scope !== "conversation";
export const includesConversation = (
  scope: RollbackScope,
  checkpoint: Checkpoint,
  state: ThreadState,
) => scope !== "code" && state.checkpointScopes.get(checkpoint.scopeId)?.kind === "root_run";

/**
 * What a rollback would do, read only: the domain's verdict (a refused rollback is refused here
 * the same way), the runs it rolls back, and, for the code, which paths go back to the checkpoint
 * (B14: only those the agent changed since; the person's files are left alone) and which of them
 * the person changed since the agent last wrote them.
 */
export async function planRollback(
  deps: RollbackPlanDeps,
  threadId: ThreadId,
  checkpointId: CheckpointId,
  scope: RollbackScope,
): Promise<RollbackPlan> {
  const state = await deps.repo.thread(threadId);
  if (!state.thread) throw new NotFoundError("thread", threadId);
  const meta = {
    commandId: deps.ids.next("command") as CommandId,
    at: deps.clock().toISOString(),
    ids: deps.ids,
  };
  const command = { type: "RollbackThread" as const, data: { threadId, checkpointId, scope } };
  const verdict = decide(command, state, meta, {});
  if (!verdict.ok) throw verdict.error;
  const event = verdict.events.find((e) => e.type === "ThreadRolledBack");
  const rolledBackRunIds =
    event?.type === "ThreadRolledBack" ? [...event.data.rolledBackRunIds] : [];
  const checkpoint = state.checkpoints.get(checkpointId)!;
  const cwd = await workspaceOf(deps.repo, state);
  if (!includesCode(scope)) {
    return { state, checkpoint, scope, cwd, rolledBackRunIds, code: null };
  }
  const store = await deps.checkpoints.storeFor(cwd);
  if ((await store.status(checkpoint.ref)) === "missing") {
    throw new CheckpointGoneError(checkpoint);
  }
  const plan = await store.planPathRestore(await treesOf(store, state, checkpoint));
  return { state, checkpoint, scope, cwd, rolledBackRunIds, code: { store, plan } };
}

/** A rollback's checkpoint whose git ref was deleted behind Skein's back. */
export class CheckpointGoneError extends PreconditionFailedError {
  constructor(readonly checkpoint: Checkpoint) {
    super(
      `checkpoint ${checkpoint.id} cannot be restored: its git ref ${checkpoint.ref} was deleted`,
    );
  }
}

/**
 * `wrote`: the tree Skein last left in the workspace. For a run's checkpoint, the thread's
 * current checkpoint (its latest run that still counts); for a safety checkpoint, what the forced
 * restore that made it left.
 */
async function treesOf(store: CheckpointStore, state: ThreadState, checkpoint: Checkpoint) {
  try {
    const target = await store.checkpointTree(checkpoint.ref);
    if (state.checkpointScopes.get(checkpoint.scopeId)?.kind === "manual") {
      return { wrote: await store.safetyWroteTree(checkpoint.ref), target };
    }
    const current = currentCheckpoint(state) ?? checkpoint;
    return { wrote: await store.checkpointTree(current.ref), target };
  } catch (error) {
    if (error instanceof CheckpointMissingError) {
      throw new PreconditionFailedError(
        `the thread's latest checkpoint is gone from git (${error.message}): the agent's changes cannot be told apart from yours`,
      );
    }
    throw error;
  }
}

export async function workspaceOf(repo: AggregateRepository, state: ThreadState): Promise<string> {
  const project = await repo.project(state.thread!.projectId);
  return state.thread!.worktreePath ?? project.project?.workspaceRoot ?? process.cwd();
}

/** B14: CONFLICT naming each path the person changed since the agent last wrote it. */
export function refuseConflicts(plan: RollbackPlan): void {
  const conflicts = plan.code?.plan.conflicts ?? [];
  if (conflicts.length === 0) return;
  const shown = conflicts.slice(0, 20).join(", ");
  const more = conflicts.length > 20 ? ` and ${conflicts.length - 20} more` : "";
  throw new ConflictError(
    `you changed ${conflicts.length === 1 ? "this file" : "these files"} after the agent last wrote ${conflicts.length === 1 ? "it" : "them"}: ${shown}${more}. Nothing was rolled back; roll back with force to overwrite (a safety checkpoint keeps your version)`,
  );
}

export function previewOf(plan: RollbackPlan): RollbackPreview {
  const files = plan.code?.plan.files ?? [];
  const capped = capPatches(files);
  return {
    checkpointId: plan.checkpoint.id,
    scope: plan.scope,
    rolledBackRunOrdinals: plan.rolledBackRunIds
      .map((id) => plan.state.runs.get(id)?.ordinal ?? 0)
      .filter((n) => n > 0),
    files: capped.map((file, i) => ({ ...file, conflict: files[i]?.conflict ?? false })),
    conflicts: plan.code?.plan.conflicts ?? [],
  };
}
