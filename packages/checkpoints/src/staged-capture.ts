import { randomBytes } from "node:crypto";
import { readFile, readdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { commitIndex, readFolder, type Starting } from "./capture.ts";
import { checkpointRef } from "./checkpoint-refs.ts";
import { CheckpointCaptureError } from "./errors.ts";
import type { GitContext } from "./git-context.ts";
import { copyPreservingMtime, keepIndexAsStatCache } from "./temp-index.ts";
import type { StagedCaptureInput } from "./types.ts";
import { removeFile } from "./remove-file.ts";

/**
 * A first capture in two halves (issue 34). Reading the folder must happen before a turn may
 * touch it; writing the commit need not, and its git processes would otherwise run beside the
 * turn. So the reading is kept as files (the index `git add -A` filled, and where it started)
 * under the capture's name, and its commit and ref are written when first wanted. The files
 * outlive a restart and sit in the store's scratch dir, which every instance shares: a reading
 * is completed once, on whichever instance asks first, and never read twice.
 */
function stagedFiles(ctx: GitContext, input: StagedCaptureInput) {
  const stem = path.join(ctx.scratchDir, `staged.${input.threadId}.${input.runId}`);
  return { index: `${stem}.index`, start: `${stem}.json` };
}

/**
 * Reads the folder into a staged capture. A reading already staged under the same name is
 * completed instead: it is older, and the folder may have changed since.
 */
export async function stageCapture(ctx: GitContext, input: StagedCaptureInput): Promise<void> {
  try {
    checkpointRef(input.threadId, input.runId);
    if (await completeStaged(ctx, input)) return;
    const files = stagedFiles(ctx, input);
    const { index, start } = await readFolder(ctx, undefined);
    try {
      // Where it started first, then the index: an index on disk always has its start beside it.
      const temp = `${files.start}.${randomBytes(4).toString("hex")}`;
      await writeFile(temp, JSON.stringify(start));
      await rename(temp, files.start);
      await index.moveTo(files.index);
    } finally {
      await index.dispose();
    }
  } catch (error) {
    throw new CheckpointCaptureError(input.threadId, input.runId, error);
  }
}

/**
 * Writes a staged capture's commit and ref; true when there was one (its ref exists now),
 * false when nothing was staged under that name.
 */
export async function completeStaged(ctx: GitContext, input: StagedCaptureInput): Promise<boolean> {
  const files = stagedFiles(ctx, input);
  // Nothing found is never removed here: a reading may be being staged at this moment (its
  // start is written before its index), and a start left alone is replaced by the next staging.
  const start = await readStart(files.start);
  if (start === null) return false;
  // Each completer writes from a copy of its own: git locks the index file it writes a tree
  // from, and two instances may complete the same reading at once (the ref is created once).
  const own = `${files.index}.${randomBytes(4).toString("hex")}`;
  if (!(await copyPreservingMtime(files.index, own))) return false;
  const options = { ...input, listFiles: false, createOnly: true };
  const env = { ...ctx.env, GIT_INDEX_FILE: own };
  try {
    const { tree } = await commitIndex(ctx, options, start, env);
    await keepIndexAsStatCache(ctx, own, tree);
  } catch (error) {
    // A reading git cannot write now it never will: dropped, so no later capture tries again.
    await dropReading(files);
    throw new CheckpointCaptureError(input.threadId, input.runId, error);
  } finally {
    await removeFile(own);
    await removeFile(`${own}.lock`);
  }
  await dropReading(files);
  return true;
}

/** The index first: a start left without its index by a crash reads as nothing staged. */
async function dropReading(files: { index: string; start: string }): Promise<void> {
  await removeFile(files.index);
  await removeFile(files.start);
}

/** Drops every staged capture of a thread (issue 33's purge). */
export async function dropStaged(ctx: GitContext, threadId: string): Promise<void> {
  const prefix = `staged.${threadId}.`;
  const names = (await readdir(ctx.scratchDir)).filter((name) => name.startsWith(prefix));
  await Promise.all(names.map((name) => removeFile(path.join(ctx.scratchDir, name))));
}

async function readStart(file: string): Promise<Starting | null> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as Starting;
  } catch {
    return null; // none staged (or a start file torn by a crash, whose index is then dropped)
  }
}
