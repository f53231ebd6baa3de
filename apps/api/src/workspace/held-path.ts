import fs from "node:fs/promises";
import path from "node:path";
import { PreconditionFailedError } from "@skein/domain";

/**
 * Issue 35 (B4): a project's folder is held as the real path it had at creation. A folder later
 * replaced by a symbolic link (to another project, to Skein's data dir) is refused before any
 * effect, instead of restoring, forking or running in whatever the link points to now.
 */
export class SwappedFolderError extends PreconditionFailedError {}

/** `dir` with symlinks resolved when it exists, else as written (absolute). */
export async function realOrResolved(dir: string): Promise<string> {
  try {
    return await fs.realpath(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** Why Skein must not act in `folder` because it became a symbolic link, or null. */
export async function swappedFolderProblem(folder: string): Promise<string | null> {
  let isLink: boolean;
  try {
    isLink = (await fs.lstat(folder)).isSymbolicLink();
  } catch {
    return null; // A missing folder is said where it matters (the run start's own check).
  }
  return isLink ? swappedFolderMessage(folder) : null;
}

/** The refusal for a `folder` that is a symbolic link now, naming where it leads. */
export async function swappedFolderMessage(folder: string): Promise<string> {
  const target = await fs.realpath(folder).catch(() => "a folder that does not exist");
  return (
    `The workspace folder ${folder} has been replaced by a symbolic link to ${target}. ` +
    "Skein works only in the real folder the project was created with, and changed nothing. " +
    `Put the folder back, or create a project for ${target}.`
  );
}

/** Throws SwappedFolderError (PRECONDITION_FAILED) when `folder` became a symbolic link. */
export async function assertNotSwapped(folder: string): Promise<void> {
  const problem = await swappedFolderProblem(folder);
  if (problem !== null) throw new SwappedFolderError(problem);
}
