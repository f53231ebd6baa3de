import {
  checkpointExists,
  checkpointMessage,
  checkpointRef,
  resolveCheckpoint,
} from "./checkpoint-refs.ts";
import { diffTrees } from "./diff.ts";
import { diffFileChanges, emptyTree } from "./file-changes.ts";
import type { GitContext } from "./git-context.ts";
import { gitText, runGit } from "./git-runner.ts";
import { snapshotTree } from "./merge.ts";
import { openTempIndex } from "./temp-index.ts";
import type { PathRestorePlan, PlannedPathRestore } from "./types.ts";

/** Safety checkpoints are Skein's commits: fixed identity, never signed. */
const IDENTITY = {
  GIT_AUTHOR_NAME: "Skein",
  GIT_AUTHOR_EMAIL: "checkpoints@skein.local",
  GIT_COMMITTER_NAME: "Skein",
  GIT_COMMITTER_EMAIL: "checkpoints@skein.local",
};

/** Paths a list of changes touches (both sides of a rename). */
function pathsOf(changes: ReadonlyArray<{ path: string; oldPath?: string }>): Set<string> {
  const paths = new Set<string>();
  for (const change of changes) {
    paths.add(change.path);
    if (change.oldPath) paths.add(change.oldPath);
  }
  return paths;
}

/**
 * B14: what undoing the agent's changes would do, computed in the object database only.
 * `wrote` is the tree Skein last left (the agent's latest checkpoint); `target` the tree to go
 * back to. Only paths that differ between the two are restored; every other file (the person's
 * own, created or edited) stays as it is now. A restored path whose current content is neither
 * what Skein wrote nor the target is the person's change since: a conflict. The plan restores
 * conflicts too; the caller refuses it unless forced.
 */
export async function planPathRestore(
  ctx: GitContext,
  input: { wrote: string; target: string; paths?: readonly string[] },
): Promise<PathRestorePlan> {
  const current = await snapshotTree(ctx, input.wrote);
  let agent = pathsOf(await diffFileChanges(ctx, input.wrote, input.target));
  if (input.paths) {
    const only = new Set(input.paths);
    agent = new Set([...agent].filter((p) => only.has(p)));
  }
  const result = await treeWithPaths(ctx, current, input.target, agent);
  const [byPerson, notAtTarget] = await Promise.all([
    diffFileChanges(ctx, input.wrote, current).then(pathsOf),
    diffFileChanges(ctx, current, input.target).then(pathsOf),
  ]);
  const conflicts = [...agent].filter((p) => byPerson.has(p) && notAtTarget.has(p)).sort();
  const conflicted = new Set(conflicts);
  const files: PlannedPathRestore[] = (await diffTrees(ctx, current, result)).map((file) => ({
    ...file,
    conflict: conflicted.has(file.path) || (file.oldPath ? conflicted.has(file.oldPath) : false),
  }));
  return { current, result, files, conflicts };
}

/** `base` with each of `paths` taken from `from` (removed where `from` lacks it). */
async function treeWithPaths(
  ctx: GitContext,
  base: string,
  from: string,
  paths: ReadonlySet<string>,
): Promise<string> {
  if (paths.size === 0) return base;
  const index = await openTempIndex(ctx, base);
  try {
    await runGit(["reset", "-q", from, "--pathspec-from-file=-", "--pathspec-file-nul"], {
      cwd: ctx.workspaceRoot,
      env: { ...index.env, GIT_LITERAL_PATHSPECS: "1" },
      input: `${[...paths].join("\0")}\0`,
    });
    return (await index.git(["write-tree"])).toString("utf8").trim();
  } finally {
    await index.dispose();
  }
}

/**
 * Keeps the workspace as it was before a forced restore under a checkpoint ref: the commit holds
 * `before`, its parent holds `wrote` (what the restore left), so restoring this checkpoint later
 * puts back exactly the paths the restore changed. An existing ref of that name is kept as is.
 */
export async function recordSafetyCheckpoint(
  ctx: GitContext,
  input: { threadId: string; name: string; before: string; wrote: string },
): Promise<string> {
  const ref = checkpointRef(input.threadId, input.name);
  // Made once: a second call (a command finishing after a crash) keeps the first snapshot.
  if (await checkpointExists(ctx, ref)) return ref;
  const env = { ...ctx.env, ...IDENTITY };
  const parent = await gitText(["commit-tree", "--no-gpg-sign", input.wrote], {
    cwd: ctx.workspaceRoot,
    env,
    input: "skein safety checkpoint: the workspace after the restore\n",
  });
  const commit = await gitText(["commit-tree", "--no-gpg-sign", input.before, "-p", parent], {
    cwd: ctx.workspaceRoot,
    env,
    input: checkpointMessage(input.threadId, input.name, null),
  });
  await runGit(["update-ref", "-m", "skein safety checkpoint", ref, commit], {
    cwd: ctx.workspaceRoot,
    env: ctx.env,
  });
  return ref;
}

/** The tree a safety checkpoint says Skein wrote (its parent's), to restore from. */
export async function safetyWroteTree(ctx: GitContext, ref: string): Promise<string> {
  const { commit } = await resolveCheckpoint(ctx, ref);
  return gitText(["rev-parse", "--verify", `${commit}^1^{tree}`], {
    cwd: ctx.workspaceRoot,
    env: ctx.env,
  });
}

/**
 * `tree` with `patch` (one file's header and hunks, as `diff` prints them) applied in reverse, in
 * a private index: null when the patch no longer applies (its lines changed since).
 */
export async function reversePatchTree(
  ctx: GitContext,
  tree: string,
  patch: string,
): Promise<string | null> {
  const index = await openTempIndex(ctx, tree);
  try {
    const { exitCode } = await runGit(["apply", "--cached", "-R", "-"], {
      cwd: ctx.workspaceRoot,
      env: index.env,
      input: patch,
      okCodes: [0, 1],
    });
    if (exitCode !== 0) return null;
    return (await index.git(["write-tree"])).toString("utf8").trim();
  } finally {
    await index.dispose();
  }
}

/** The tree a checkpoint's thread started from (its base commit's, or the empty tree). */
export async function checkpointBaseTree(ctx: GitContext, ref: string): Promise<string> {
  const { base } = await resolveCheckpoint(ctx, ref);
  return base ? `${base}^{tree}` : emptyTree(ctx);
}
