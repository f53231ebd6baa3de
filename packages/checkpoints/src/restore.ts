import { rmdir, unlink } from "node:fs/promises";
import path from "node:path";
import { resolveCheckpoint } from "./checkpoint-refs.ts";
import { diffFileChanges } from "./file-changes.ts";
import type { GitContext } from "./git-context.ts";
import { openTempIndex } from "./temp-index.ts";
import type { FileChange, RestoreResult } from "./types.ts";

/**
 * Makes the workspace equal to a checkpoint using only a private index:
 * 1. stage the current workspace on top of the checkpoint's tree (tracked + untracked, not
 *    ignored) and diff it against the checkpoint, limited to the workspace;
 * 2. delete what the checkpoint lacks, then `checkout-index -f` exactly the paths that differ.
 * Ignored files are never staged, so never deleted; files outside a subfolder workspace and the
 * user's index, HEAD and branches are never involved. A missing ref throws
 * CheckpointMissingError before anything is touched.
 */
export async function restoreCheckpoint(ctx: GitContext, ref: string): Promise<RestoreResult> {
  const target = await resolveCheckpoint(ctx, ref);
  const files = await restoreTree(ctx, target.tree);
  return { ref, commit: target.commit, files };
}

/**
 * Makes the workspace equal to `tree` (a full-repository tree), as `restoreCheckpoint` does.
 * `current`: the workspace's tree when the caller has just snapshotted it (saves staging every
 * file a second time); the stat cache is then left as it was, since this index never saw the
 * workspace's unchanged files.
 */
export async function restoreTree(
  ctx: GitContext,
  tree: string,
  current?: string,
): Promise<FileChange[]> {
  const target = { tree };
  const index = await openTempIndex(ctx, target.tree);
  try {
    let from = current;
    if (from === undefined) {
      await index.git(["add", "-A", "--", "."]);
      from = (await index.git(["write-tree"])).toString("utf8").trim();
    }
    const files = await diffFileChanges(ctx, from, target.tree);
    // Back to the checkpoint's entries; unchanged ones keep their fresh stat data.
    await index.git(["read-tree", "-m", target.tree]);
    const { remove, write } = plan(files);
    await removeFiles(ctx.workspaceRoot, remove);
    if (write.length > 0) {
      await index.git(["checkout-index", "-f", "-u", "-z", "--stdin"], `${write.join("\0")}\0`);
    }
    if (current === undefined) await index.keepAsStatCache(target.tree);
    return files;
  } finally {
    await index.dispose();
  }
}

function plan(files: readonly FileChange[]): { remove: string[]; write: string[] } {
  const remove: string[] = [];
  const write: string[] = [];
  for (const file of files) {
    if (file.status === "deleted") remove.push(file.path);
    else write.push(file.path);
    if (file.status === "renamed" && file.oldPath) remove.push(file.oldPath);
  }
  return { remove, write };
}

/** Deletes files, then prunes directories they leave empty, as git itself does on checkout. */
async function removeFiles(root: string, relPaths: readonly string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const rel of relPaths) {
    try {
      await unlink(path.join(root, rel));
    } catch (error) {
      // Already gone, or a nested repository (directory): nothing Skein should delete.
      if (!isFsError(error, "ENOENT", "EISDIR", "EPERM")) throw error;
    }
    for (let dir = path.dirname(rel); dir !== "." && dir !== ""; dir = path.dirname(dir)) {
      dirs.add(dir);
    }
  }
  const deepestFirst = [...dirs].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const dir of deepestFirst) {
    await rmdir(path.join(root, dir)).catch(() => undefined);
  }
}

function isFsError(error: unknown, ...codes: string[]): boolean {
  return error instanceof Error && "code" in error && codes.includes(String(error.code));
}
