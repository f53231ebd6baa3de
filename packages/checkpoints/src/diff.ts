import { resolveCheckpoint } from "./checkpoint-refs.ts";
import { CheckpointError } from "./errors.ts";
import { diffFileChanges, emptyTree, treeDiffArgs } from "./file-changes.ts";
import type { GitContext } from "./git-context.ts";
import { runGit } from "./git-runner.ts";
import type { FileDiff } from "./types.ts";

/**
 * Unified diff per file between two checkpoints; `fromRef` null means the thread's base (HEAD at
 * the first capture, or an empty tree). Feeds `file_change` turn items and the per-run diff.
 */
export async function diffCheckpoints(
  ctx: GitContext,
  fromRef: string | null,
  toRef: string,
  paths: readonly string[] = [],
): Promise<FileDiff[]> {
  const to = await resolveCheckpoint(ctx, toRef);
  const from = fromRef
    ? (await resolveCheckpoint(ctx, fromRef)).commit
    : (to.base ?? (await emptyTree(ctx)));
  return diffTrees(ctx, from, to.commit, paths);
}

/** Unified diff per file between two tree-ishes, limited to the workspace. */
export async function diffTrees(
  ctx: GitContext,
  from: string,
  to: string,
  paths: readonly string[] = [],
): Promise<FileDiff[]> {
  const [changes, patchOut] = await Promise.all([
    diffFileChanges(ctx, from, to, paths),
    runGit([...treeDiffArgs(ctx), "-p", from, to, "--", ...paths], {
      cwd: ctx.workspaceRoot,
      env: ctx.env,
    }),
  ]);
  const patches = splitPatch(patchOut.stdout.toString("utf8"));
  // Same diff options give the same file order, so patches pair with changes by position.
  if (patches.length !== changes.length) {
    throw new CheckpointError(
      `Diff ${from}..${to}: ${changes.length} files but ${patches.length} patches`,
    );
  }
  return changes.map((change, i) => ({ ...change, patch: patches[i] ?? "" }));
}

/** A body line never starts with "diff --git" (it carries a " ", "+" or "-" prefix). */
export function splitPatch(text: string): string[] {
  return text.split(/^(?=diff --git )/m).filter((chunk) => chunk.startsWith("diff --git "));
}
