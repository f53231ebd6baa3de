import type { Checkpoint, CheckpointId, IdSource, ThreadState } from "@skein/domain";
import type { CheckpointStore, PathRestorePlan } from "@skein/checkpoints";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { ReceiptOptions } from "../commands/command-gate.ts";

export type SafetyInput = {
  state: ThreadState;
  store: CheckpointStore;
  plan: PathRestorePlan;
  checkpointId: CheckpointId;
  /** The checkpoint the restore is about (its node and run anchor the safety checkpoint). */
  anchor: Checkpoint;
  cwd: string;
};

/**
 * B14: keeps the workspace as it is before a restore that overwrites something (a forced
 * rollback, a revert) as a `manual` checkpoint; rolling back to it puts the restored paths back.
 * Made once: a command finishing after a crash finds the git ref it made the first time and keeps
 * it (the workspace may already be half restored). `answer`: this append answers the command.
 */
export async function keepSafetyCheckpoint(
  deps: { repo: AggregateRepository; ids: IdSource },
  input: SafetyInput,
  answer?: ReceiptOptions,
): Promise<number | null> {
  const { state, store, plan, checkpointId, anchor, cwd } = input;
  const threadId = state.thread!.id;
  if (state.checkpoints.has(checkpointId)) return null;
  const ref = await store.recordSafetyCheckpoint({
    threadId,
    name: `safety-${checkpointId}`,
    before: plan.current,
    wrote: plan.result,
  });
  const scopeId = deps.ids.next("checkpointScope");
  await deps.repo.execute({
    type: "RecordCheckpointScope",
    data: { threadId, scopeId, kind: "manual", nodeId: anchor.nodeId, runId: anchor.runId, cwd },
  });
  const files = plan.files.map((f) => ({
    path: f.path,
    additions: f.additions,
    deletions: f.deletions,
    status: f.status,
  }));
  const result = await deps.repo.execute(
    {
      type: "RecordCheckpoint",
      data: { threadId, checkpointId, scopeId, ref, status: "ready", files },
    },
    answer,
  );
  return result.sequence;
}
