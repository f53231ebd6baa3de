import {
  type CheckpointId,
  type IdSource,
  isDomainError,
  NotFoundError,
  PreconditionFailedError,
  type ThreadState,
} from "@skein/domain";
import type { BringBackCodeInput, CodeBroughtBack } from "@skein/contract";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CommandContext } from "../commands/command-gate.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import { applyCodePlan, rollBackCodePlan } from "./bring-back-apply.ts";
import { type CodePlan, planBringBack } from "./bring-back-code.ts";

type Deps = { repo: AggregateRepository; checkpoints: CheckpointService; ids: IdSource };

/** Recorded before the first file is written (B3): a retry or a restart finishes this plan. */
type CodeOnlyIntent = { safetyCheckpointId: CheckpointId; code: CodePlan };

export type CodeOnlyAnswer = CodeBroughtBack & { sequence: number };

/**
 * `thread.bringBackCode` (issue 26): the composer's "code only". The fork's files are merged into
 * this thread's workspace as uncommitted changes (a three-way merge from the fork point, so the
 * person's own changes elsewhere stay), with no message, run or handoff: the conversation stays
 * in the fork. A clash is refused (CONFLICT naming the files) before anything is written.
 *
 * Undo is a safety checkpoint of the workspace as it was (the rollback rule of B14 then puts back
 * exactly the paths the bring-back wrote, unless the person changed them since). Its git ref is
 * made before the first write; the checkpoint and the bring-back are recorded in one append that
 * answers the command. A crash between is finished from the recorded plan; an append refused
 * (a run started meanwhile) takes the files back out, so the log and the workspace agree.
 */
export async function bringBackCodeOnly(
  deps: Deps,
  input: BringBackCodeInput,
  command: CommandContext,
): Promise<CodeOnlyAnswer> {
  const intent = (await command.recorded<CodeOnlyIntent>()) ?? (await decideIntent(deps, input));
  const { safetyCheckpointId, code: plan } = await command.intend(intent);
  const state = await deps.repo.thread(input.threadId);
  const anchorId = state.lastRootCheckpointId;
  const anchor = anchorId ? state.checkpoints.get(anchorId) : undefined;
  if (!anchor)
    throw new PreconditionFailedError("the thread has no checkpoint to keep the bring-back under");
  const store = await deps.checkpoints.storeFor(plan.cwd);
  const ref = await store.recordSafetyCheckpoint({
    threadId: input.threadId,
    name: `safety-${safetyCheckpointId}`,
    before: plan.before,
    wrote: plan.merged,
  });
  await applyCodePlan(deps, plan);
  const answer: CodeBroughtBack = {
    mode: "squash",
    undoCheckpointId: safetyCheckpointId,
    files: plan.files,
  };
  const files = plan.files.map((f) => ({
    path: f.path,
    additions: f.additions,
    deletions: f.deletions,
    status: f.status as "added" | "modified" | "deleted" | "renamed",
  }));
  const threadId = input.threadId;
  const scopeId = deps.ids.next("checkpointScope");
  try {
    const result = await deps.repo.executeBatch(
      [
        {
          type: "RecordCheckpointScope",
          data: {
            threadId,
            scopeId,
            kind: "manual",
            nodeId: anchor.nodeId,
            runId: anchor.runId,
            cwd: plan.cwd,
          },
        },
        {
          type: "RecordCheckpoint",
          data: {
            threadId,
            checkpointId: safetyCheckpointId,
            scopeId,
            ref,
            status: "ready",
            files,
          },
        },
        {
          type: "RecordCodeBroughtBack",
          data: {
            threadId,
            forkThreadId: input.forkThreadId,
            undoCheckpointId: safetyCheckpointId,
            files,
          },
        },
      ],
      command.answer(answer),
    );
    return { ...(result.receipt as CodeBroughtBack), sequence: result.sequence };
  } catch (error) {
    if (isDomainError(error)) await rollBackCodePlan(deps, plan);
    throw error;
  }
}

/** Everything refused here is refused before any file or ref is written. */
async function decideIntent(deps: Deps, input: BringBackCodeInput): Promise<CodeOnlyIntent> {
  const state = await openThread(deps, input);
  if (state.activeRunId) {
    throw new PreconditionFailedError(
      `run ${state.activeRunId} is working in this thread's workspace; bring the code back once it has finished (or interrupt it)`,
    );
  }
  // Both latest runs must have their checkpoints: the fork's is what comes back.
  await deps.checkpoints.settleLatestRun(await deps.repo.thread(input.forkThreadId));
  await deps.checkpoints.settleLatestRun(state);
  const target = await deps.repo.thread(input.threadId);
  const code = await planBringBack(deps, target, input.forkThreadId, "squash", null, {
    keepChanges: true,
  });
  if (code.files.length === 0) {
    throw new PreconditionFailedError(
      `this workspace already holds the code of ${input.forkThreadId}: nothing to bring back`,
    );
  }
  return { safetyCheckpointId: deps.ids.next("checkpoint") as CheckpointId, code };
}

async function openThread(deps: Deps, input: BringBackCodeInput): Promise<ThreadState> {
  const state = await deps.repo.thread(input.threadId);
  const thread = state.thread;
  if (!thread) throw new NotFoundError("thread", input.threadId);
  if (thread.deletedAt || thread.archivedAt) {
    const what = thread.deletedAt ? "deleted" : "archived";
    throw new PreconditionFailedError(`thread ${input.threadId} is ${what}`);
  }
  return state;
}
