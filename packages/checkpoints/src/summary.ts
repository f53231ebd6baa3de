import { resolveCheckpoint } from "./checkpoint-refs.ts";
import { diffFileChanges, emptyTree } from "./file-changes.ts";
import type { GitContext } from "./git-context.ts";
import { runGit } from "./git-runner.ts";
import type { CheckpointFileSummary } from "./types.ts";

/**
 * What a checkpoint holds relative to the thread's start, with sizes: the data behind the
 * `checkpoint_summary` handoff a fork gets when its provider cannot fork natively.
 */
export async function summarizeCheckpointFiles(
  ctx: GitContext,
  ref: string,
): Promise<CheckpointFileSummary> {
  const checkpoint = await resolveCheckpoint(ctx, ref);
  const from = checkpoint.base ?? (await emptyTree(ctx));
  const [changes, sizes] = await Promise.all([
    diffFileChanges(ctx, from, checkpoint.commit),
    blobSizes(ctx, checkpoint.commit),
  ]);
  let totalBytes = 0;
  for (const size of sizes.values()) totalBytes += size ?? 0;
  return {
    ref,
    commit: checkpoint.commit,
    baseCommit: checkpoint.base,
    totalFiles: sizes.size,
    totalBytes,
    changedFiles: changes.map((change) => ({
      ...change,
      size: change.status === "deleted" ? null : (sizes.get(change.path) ?? null),
    })),
  };
}

/** `ls-tree` lists paths relative to the current directory, i.e. the workspace. */
async function blobSizes(ctx: GitContext, commit: string): Promise<Map<string, number | null>> {
  const { stdout } = await runGit(["ls-tree", "-r", "-l", "-z", commit], {
    cwd: ctx.workspaceRoot,
    env: ctx.env,
  });
  const sizes = new Map<string, number | null>();
  for (const record of stdout.toString("utf8").split("\0")) {
    if (!record) continue;
    // "<mode> <type> <object> <size padded>\t<path>"; submodule links show "-" as size.
    const tab = record.indexOf("\t");
    const size = record.slice(0, tab).trim().split(/\s+/)[3];
    sizes.set(record.slice(tab + 1), size && size !== "-" ? Number(size) : null);
  }
  return sizes;
}
