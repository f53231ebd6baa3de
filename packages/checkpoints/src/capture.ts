import { checkpointMessage, checkpointRef, resolveCheckpoint } from "./checkpoint-refs.ts";
import { CheckpointCaptureError } from "./errors.ts";
import { diffFileChanges, emptyTree } from "./file-changes.ts";
import { type GitContext, headCommit } from "./git-context.ts";
import { runGit } from "./git-runner.ts";
import { openTempIndex } from "./temp-index.ts";
import type { CaptureInput, CaptureResult } from "./types.ts";

/** Checkpoint commits are Skein's, not the user's: fixed identity, never signed, no hooks. */
const IDENTITY = {
  GIT_AUTHOR_NAME: "Skein",
  GIT_AUTHOR_EMAIL: "checkpoints@skein.local",
  GIT_COMMITTER_NAME: "Skein",
  GIT_COMMITTER_EMAIL: "checkpoints@skein.local",
};

type Starting = { seedTree: string | null; parentCommit: string | null; base: string | null };

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
 * Snapshots the working tree (not tool reports, so shell edits count) as a commit under a hidden
 * ref. Staging goes through a temporary index on top of the parent's tree; `git add -A` adds
 * untracked files, records deletions and honours .gitignore / info/exclude.
 */
export async function captureCheckpoint(
  ctx: GitContext,
  input: CaptureInput,
): Promise<CaptureResult> {
  const ref = checkpointRef(input.threadId, input.runId);
  try {
    const start = await startingPoint(ctx, input.parentRef);
    const index = await openTempIndex(ctx, start.seedTree);
    try {
      await index.git(["add", "-A", "--", "."]);
      input.onFolderRead?.();
      const tree = (await index.git(["write-tree"])).toString("utf8").trim();
      const parents = start.parentCommit ? ["-p", start.parentCommit] : [];
      const { stdout } = await runGit(["commit-tree", "--no-gpg-sign", tree, ...parents], {
        cwd: ctx.workspaceRoot,
        env: { ...ctx.env, ...IDENTITY },
        input: checkpointMessage(input.threadId, input.runId, start.base),
      });
      const commit = stdout.toString("utf8").trim();
      const listed = async () =>
        diffFileChanges(ctx, start.parentCommit ?? (await emptyTree(ctx)), commit);
      const [files] = await Promise.all([
        input.listFiles === false ? [] : listed(),
        runGit(["update-ref", "-m", "skein checkpoint", ref, commit], {
          cwd: ctx.workspaceRoot,
          env: ctx.env,
        }),
        index.keepAsStatCache(tree),
      ]);
      return { ref, commit, baseCommit: start.base, files };
    } finally {
      await index.dispose();
    }
  } catch (error) {
    throw new CheckpointCaptureError(input.threadId, input.runId, error);
  }
}
