import { checkpointMessage, checkpointRef, resolveCheckpoint } from "./checkpoint-refs.ts";
import { CheckpointCaptureError } from "./errors.ts";
import { diffFileChanges, emptyTree } from "./file-changes.ts";
import { type GitContext, headCommit } from "./git-context.ts";
import { runGit } from "./git-runner.ts";
import { openTempIndex, type TempIndex } from "./temp-index.ts";
import type { CaptureInput, CaptureResult } from "./types.ts";

/** Checkpoint commits are Skein's, not the user's: fixed identity, never signed, no hooks. */
const IDENTITY = {
  GIT_AUTHOR_NAME: "Skein",
  GIT_AUTHOR_EMAIL: "checkpoints@skein.local",
  GIT_COMMITTER_NAME: "Skein",
  GIT_COMMITTER_EMAIL: "checkpoints@skein.local",
};

/** Where a capture starts from: the tree its index is seeded with, its commit's parent, the base. */
export type Starting = {
  seedTree: string | null;
  parentCommit: string | null;
  base: string | null;
};

async function startingPoint(ctx: GitContext, parentRef: string | undefined): Promise<Starting> {
  if (parentRef !== undefined) {
    const parent = await resolveCheckpoint(ctx, parentRef);
    return { seedTree: parent.tree, parentCommit: parent.commit, base: parent.base };
  }
  // First run of a thread: its base is what the user had committed (or nothing at all).
  const head = await headCommit(ctx);
  return { seedTree: head ? `${head}^{tree}` : null, parentCommit: head, base: head };
}

/**
 * The working tree read into a temporary index on top of the parent's tree: `git add -A` adds
 * untracked files, records deletions and honours .gitignore / info/exclude. The caller disposes
 * of the index.
 */
export async function readFolder(
  ctx: GitContext,
  parentRef: string | undefined,
): Promise<{ index: TempIndex; start: Starting }> {
  const start = await startingPoint(ctx, parentRef);
  const index = await openTempIndex(ctx, start.seedTree);
  try {
    await index.git(["add", "-A", "--", "."]);
    return { index, start };
  } catch (error) {
    await index.dispose();
    throw error;
  }
}

/**
 * Writes what an index holds as a checkpoint commit under the capture's ref. `createOnly`: the
 * ref must not exist yet (another instance may be writing the same staged capture); one that
 * does is left as it is and read back.
 */
export async function commitIndex(
  ctx: GitContext,
  input: { threadId: string; runId: string; listFiles: boolean; createOnly: boolean },
  start: Starting,
  indexEnv: Record<string, string>,
): Promise<CaptureResult> {
  const ref = checkpointRef(input.threadId, input.runId);
  const git = (args: string[], env: Record<string, string>, stdin?: string) =>
    runGit(args, { cwd: ctx.workspaceRoot, env, ...(stdin === undefined ? {} : { input: stdin }) });
  const tree = (await git(["write-tree"], indexEnv)).stdout.toString("utf8").trim();
  const parents = start.parentCommit ? ["-p", start.parentCommit] : [];
  const message = checkpointMessage(input.threadId, input.runId, start.base);
  const made = await git(
    ["commit-tree", "--no-gpg-sign", tree, ...parents],
    { ...ctx.env, ...IDENTITY },
    message,
  );
  let commit = made.stdout.toString("utf8").trim();
  const listed = async () =>
    diffFileChanges(ctx, start.parentCommit ?? (await emptyTree(ctx)), commit);
  const update = ["update-ref", "-m", "skein checkpoint", ref, commit];
  const [files] = await Promise.all([
    input.listFiles ? listed() : [],
    // An empty old value: git refuses to move a ref that already exists.
    git(input.createOnly ? [...update, ""] : update, ctx.env).catch(async (error: unknown) => {
      if (!input.createOnly) throw error;
      const held = await resolveCheckpoint(ctx, ref).catch(() => Promise.reject(error));
      commit = held.commit;
    }),
  ]);
  return { ref, commit, tree, baseCommit: start.base, files };
}

/** Snapshots the working tree (not tool reports, so shell edits count) as a commit under a hidden ref. */
export async function captureCheckpoint(
  ctx: GitContext,
  input: CaptureInput,
): Promise<CaptureResult> {
  try {
    checkpointRef(input.threadId, input.runId);
    const { index, start } = await readFolder(ctx, input.parentRef);
    try {
      const options = { ...input, listFiles: true, createOnly: false };
      const captured = await commitIndex(ctx, options, start, index.env);
      await index.keepAsStatCache(captured.tree);
      return captured;
    } finally {
      await index.dispose();
    }
  } catch (error) {
    throw new CheckpointCaptureError(input.threadId, input.runId, error);
  }
}
