import { ConflictError, PreconditionFailedError } from "@skein/domain";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import type { CodeBroughtBack } from "@skein/contract";
import type { CodePlan } from "./bring-back-code.ts";

type Deps = { checkpoints: CheckpointService };

/**
 * Brings the workspace (and for `merge` the branch and index) to what the plan decided. Every
 * step goes to a target, not by a delta: the plan's files to their merged content, the branch by
 * compare-and-swap to the merge commit. Run again after a crash it finishes what is missing and
 * writes nothing that is already there, so the same command can never apply the fork's files
 * twice. Only the plan's paths are written (B14): what the person changed since the plan was
 * made stays, and a planned path they changed meanwhile refuses the apply, naming it.
 */
export async function applyCodePlan(deps: Deps, plan: CodePlan): Promise<void> {
  const store = await deps.checkpoints.storeFor(plan.cwd);
  const now = await store.snapshotTree(plan.before);
  const target =
    now === plan.before
      ? { tree: plan.merged, conflicts: [] }
      : await store.mergeTrees({ base: plan.before, ours: now, theirs: plan.merged });
  if (target.conflicts.length > 0) {
    throw new ConflictError(
      `the workspace changed since the bring-back was planned: ${target.conflicts.join(", ")} changed both here and in the fork; nothing was written`,
    );
  }
  await store.restoreTree(target.tree, now);
  if (plan.commits) {
    await store.moveBranch({
      branch: plan.commits.branch,
      from: plan.commits.head,
      to: plan.commits.merge,
      reason: "skein: bring back fork (merge)",
    });
  }
}

/**
 * Takes a bring-back whose run was never recorded out of the workspace again: the files it wrote
 * go back to the tree before, and a branch it moved goes back to the user's commit. Files the
 * plan did not write are never touched: if any changed meanwhile, nothing is rolled back and the
 * refusal says so (the person decides; the log still holds no run for these files).
 */
export async function rollBackCodePlan(deps: Deps, plan: CodePlan): Promise<void> {
  const store = await deps.checkpoints.storeFor(plan.cwd);
  const now = await store.snapshotTree(plan.before);
  const planned = new Set(plan.files.flatMap((f) => [f.path]));
  const foreign = (await store.changedFiles(plan.merged, now)).filter((f) => !planned.has(f.path));
  if (foreign.length > 0) {
    throw new PreconditionFailedError(
      `an unrecorded bring-back could not be rolled back: ${foreign.map((f) => f.path).join(", ")} changed meanwhile`,
    );
  }
  if (plan.commits) {
    const head = await store.branchHead();
    if (head.branch === plan.commits.branch && head.commit === plan.commits.merge) {
      await store.moveBranch({
        branch: plan.commits.branch,
        from: plan.commits.merge,
        to: plan.commits.head,
        reason: "skein: roll back an unrecorded bring-back",
      });
    }
  }
  await store.restoreTree(plan.before, now);
}

/** What the command answers about the code: the plan without its internal trees. */
export function broughtBack(plan: CodePlan): CodeBroughtBack {
  return {
    mode: plan.mode,
    undoCheckpointId: plan.undoCheckpointId,
    files: plan.files,
    ...(plan.commits ? { commits: plan.commits } : {}),
  };
}
