import {
  type CheckpointId,
  ConflictError,
  type IdSource,
  NotFoundError,
  PreconditionFailedError,
  type ThreadState,
  ValidationError,
} from "@skein/domain";
import type { FileDiff, PathRestorePlan } from "@skein/checkpoints";
import type { ReviewRevertInput, RollbackResult } from "@skein/contract";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CommandContext } from "../commands/command-gate.ts";
import type { CheckpointService } from "./checkpoint-service.ts";
import { type DiffEnds, currentCheckpoint, diffEnds, diffFiles } from "./review-diff.ts";
import { keepSafetyCheckpoint } from "./safety-checkpoint.ts";

type Deps = { repo: AggregateRepository; checkpoints: CheckpointService; ids: IdSource };

/** A patch's hunks start at lines beginning "@@ "; what comes before is the file header. */
export function splitHunks(patch: string): { header: string; hunks: string[] } {
  const [header = "", ...hunks] = patch.split(/^(?=@@ )/m);
  return { header, hunks };
}

/**
 * `review.revert` (B14): takes back one file, or one hunk of it, of a review diff (a run's or the
 * thread's). A file goes back to its content before the diff, under the rollback's rule: refused
 * (CONFLICT, naming it) when the person changed it since the agent last wrote it, unless `force`.
 * A hunk is reversed on the file as it is now, so the person's other edits in the file stay; when
 * the hunk's own lines changed since, it is CONFLICT. Every revert first keeps the workspace as a
 * safety checkpoint (in the answer): rolling back to it undoes the revert.
 */
export async function reviewRevert(
  deps: Deps,
  state: ThreadState,
  input: ReviewRevertInput,
  command: CommandContext,
): Promise<RollbackResult> {
  const ends = await diffEnds(deps.checkpoints, state, input);
  if (!ends)
    throw new PreconditionFailedError("the thread has no checkpoint yet: nothing to revert");
  const file = (await diffFiles(ends)).find(
    (f) => f.path === input.path || f.oldPath === input.path,
  );
  const recorded = await command.recorded<{ safetyCheckpointId: CheckpointId }>();
  if (!file && !recorded) throw new NotFoundError("changed file in this diff", input.path);
  const plan = file
    ? input.hunk === undefined
      ? await fileRevert(state, ends, file)
      : await hunkRevert(ends, file, input.hunk)
    : await ends.store.planPathRestore({ wrote: ends.to.ref, target: ends.to.ref, paths: [] });
  if (plan.conflicts.length > 0 && !input.force && !recorded) {
    throw new ConflictError(
      `you changed ${input.path} after the agent last wrote it; nothing was reverted. Revert with force to overwrite it (a safety checkpoint keeps your version)`,
    );
  }
  if (plan.files.length === 0 && !recorded) {
    throw new PreconditionFailedError(`${input.path} already holds its content from before`);
  }
  const { safetyCheckpointId } = await command.intend({
    safetyCheckpointId: deps.ids.next("checkpoint") as CheckpointId,
  });
  // The safety snapshot is taken (a git ref) before any file moves; its record answers.
  const safety = {
    state,
    store: ends.store,
    plan,
    checkpointId: safetyCheckpointId,
    anchor: ends.to,
    cwd: ends.cwd,
  };
  const files = plan.files.map((f) => ({
    path: f.path,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
  }));
  const answer = { files, safetyCheckpointId };
  await ends.store.recordSafetyCheckpoint({
    threadId: state.thread!.id,
    name: `safety-${safetyCheckpointId}`,
    before: plan.current,
    wrote: plan.result,
  });
  if (plan.files.length > 0) await ends.store.restoreTree(plan.result, plan.current);
  const sequence = await keepSafetyCheckpoint(deps, safety, command.answer(answer));
  if (sequence === null) {
    throw new PreconditionFailedError(`checkpoint ${safetyCheckpointId} was already recorded`);
  }
  return { sequence, ...answer };
}

/** The file back to its content before the diff, if the person has not changed it since. */
async function fileRevert(
  state: ThreadState,
  ends: DiffEnds,
  file: FileDiff,
): Promise<PathRestorePlan> {
  const latest = currentCheckpoint(state) ?? ends.to;
  const target = ends.fromRef ?? (await ends.store.checkpointBaseTree(ends.to.ref));
  const paths = file.oldPath ? [file.path, file.oldPath] : [file.path];
  return ends.store.planPathRestore({ wrote: latest.ref, target, paths });
}

/** One hunk reversed on the file as it is now. */
async function hunkRevert(ends: DiffEnds, file: FileDiff, hunk: number): Promise<PathRestorePlan> {
  const { header, hunks } = splitHunks(file.patch);
  const chosen = hunks[hunk];
  if (file.binary || chosen === undefined) {
    throw new ValidationError(
      `${file.path} has ${file.binary ? "no hunks (binary)" : `${hunks.length} hunk(s)`}; hunk ${hunk} does not exist`,
      [{ path: "hunk", message: "no such hunk" }],
    );
  }
  const now = await ends.store.snapshotTree(null);
  const target = await ends.store.reversePatchTree(now, `${header}${chosen}`);
  if (target === null) {
    throw new ConflictError(
      `hunk ${hunk + 1} of ${file.path} no longer matches the file (its lines changed since); nothing was reverted`,
    );
  }
  return ends.store.planPathRestore({ wrote: now, target, paths: [file.path] });
}
