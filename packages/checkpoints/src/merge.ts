import { resolveCheckpoint } from "./checkpoint-refs.ts";
import { diffFileChanges } from "./file-changes.ts";
import type { GitContext } from "./git-context.ts";
import { runGit } from "./git-runner.ts";
import { openTempIndex } from "./temp-index.ts";
import type { FileChange, TreeMerge } from "./types.ts";

/** Scratch commits for merges are Skein's: fixed identity, never signed. */
const IDENTITY = {
  GIT_AUTHOR_NAME: "Skein",
  GIT_AUTHOR_EMAIL: "checkpoints@skein.local",
  GIT_COMMITTER_NAME: "Skein",
  GIT_COMMITTER_EMAIL: "checkpoints@skein.local",
};

/**
 * The workspace as it is right now, written as a full-repository tree object (no ref, no commit):
 * what a capture would record, without recording anything. `seed` (a tree-ish, e.g. the latest
 * checkpoint) only speeds staging up; the result does not depend on it.
 */
export async function snapshotTree(ctx: GitContext, seed: string | null): Promise<string> {
  const index = await openTempIndex(ctx, seed);
  try {
    await index.git(["add", "-A", "--", "."]);
    const tree = (await index.git(["write-tree"])).toString("utf8").trim();
    await index.keepAsStatCache(tree);
    return tree;
  } finally {
    await index.dispose();
  }
}

/** The tree a checkpoint ref holds. */
export async function checkpointTree(ctx: GitContext, ref: string): Promise<string> {
  return (await resolveCheckpoint(ctx, ref)).tree;
}

/** Files that differ between two tree-ishes, limited to the workspace. */
export function changedFiles(ctx: GitContext, from: string, to: string): Promise<FileChange[]> {
  return diffFileChanges(ctx, from, to);
}

async function commitTree(ctx: GitContext, tree: string, parent: string | null): Promise<string> {
  const parents = parent ? ["-p", parent] : [];
  const { stdout } = await runGit(["commit-tree", "--no-gpg-sign", tree, ...parents], {
    cwd: ctx.workspaceRoot,
    env: { ...ctx.env, ...IDENTITY },
    input: "skein merge scratch\n",
  });
  return stdout.toString("utf8").trim();
}

/**
 * A three-way merge of trees computed entirely in the object database: nothing in any work tree,
 * index or ref moves. git 2.39's `merge-tree --write-tree` has no `--merge-base`, so `base` is
 * made the merge base by construction: two scratch commits on one scratch root commit (they
 * stay unreferenced; Skein never prunes, git's own gc collects them in time).
 */
export async function mergeTrees(
  ctx: GitContext,
  input: { base: string; ours: string; theirs: string },
): Promise<TreeMerge> {
  const root = await commitTree(ctx, input.base, null);
  const [ours, theirs] = await Promise.all([
    commitTree(ctx, input.ours, root),
    commitTree(ctx, input.theirs, root),
  ]);
  const { stdout, exitCode } = await runGit(
    ["merge-tree", "--write-tree", "--name-only", "-z", "--no-messages", ours, theirs],
    { cwd: ctx.workspaceRoot, env: ctx.env, okCodes: [0, 1] },
  );
  // Output: the merged tree id, then (on conflict) each conflicted path, all NUL-terminated.
  const [tree = "", ...rest] = stdout.toString("utf8").split("\0");
  const conflicts = exitCode === 0 ? [] : [...new Set(rest.filter((p) => p !== ""))].sort();
  return { tree: tree.trim(), conflicts: conflicts.map((p) => relativeTo(ctx, p)) };
}

/** Repository paths as the workspace names them (a subfolder workspace drops its prefix). */
function relativeTo(ctx: GitContext, repoPath: string): string {
  return ctx.prefix && repoPath.startsWith(ctx.prefix)
    ? repoPath.slice(ctx.prefix.length)
    : repoPath;
}
