import { constants, type Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { ValidationError, workspacePathProblem } from "@skein/domain";

/**
 * The filesystem half of the workspace rule (B4; the written form is @skein/domain's
 * `WorkspacePath`): the folder exists, is a directory Skein can read, write and enter, and is not
 * `/` or one of Skein's own folders (its data dir) or inside one, symlinks resolved. Only folders
 * a person names are held to this: the isolated worktrees Skein makes for forks live in the data
 * dir on purpose. Folders get deleted later too; the run start checks again.
 */

/** What the filesystem says of a folder Skein is to work in (the agent reads, writes, enters it). */
export type FolderState =
  | { kind: "usable" }
  | { kind: "unreachable"; error: NodeJS.ErrnoException }
  | { kind: "not_directory" }
  | { kind: "no_access" };

/** One look at `folder` (stat, symbolic links followed): project.create's rule. */
export async function inspectFolder(folder: string): Promise<FolderState> {
  // Both looks at once: each is a thread-pool round trip, and one after the other they cost two.
  const [entry, usable] = await Promise.all([
    fs.stat(folder).catch((error: unknown) => error as NodeJS.ErrnoException),
    mayReadWriteEnter(folder),
  ]);
  return folderStateOf(entry, usable);
}

/** Whether Skein may read, write and enter `folder` (false for a folder that is not there). */
export function mayReadWriteEnter(folder: string): Promise<boolean> {
  return fs.access(folder, constants.R_OK | constants.W_OK | constants.X_OK).then(
    () => true,
    () => false,
  );
}

/**
 * The folder's state from a look at its entry (`fs.stat`, or `fs.lstat` for a path known not to
 * be a symbolic link: the two then agree) and `mayReadWriteEnter`. The entry decides first: a
 * path that is missing or not a directory is said so whatever its access.
 */
export function folderStateOf(entry: Stats | NodeJS.ErrnoException, usable: boolean): FolderState {
  if (entry instanceof Error) return { kind: "unreachable", error: entry };
  if (!entry.isDirectory()) return { kind: "not_directory" };
  return usable ? { kind: "usable" } : { kind: "no_access" };
}

/** `dir` with symlinks resolved when it exists (a data dir may not exist yet), else as written. */
async function realOrResolved(dir: string): Promise<string> {
  try {
    return await fs.realpath(dir);
  } catch {
    return path.resolve(dir);
  }
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** Why `root` cannot be a workspace folder, in words a person can act on, or null when it can. */
export async function workspaceFolderProblem(
  root: string,
  ownDirs: readonly string[],
): Promise<string | null> {
  const written = workspacePathProblem(root);
  if (written !== null) return written;
  const state = await inspectFolder(root);
  if (state.kind === "unreachable") {
    switch (state.error.code) {
      case "ENOENT":
        return `The folder ${root} does not exist. Create it or choose another folder.`;
      case "ENOTDIR":
        return `The folder ${root} does not exist: part of that path is a file. Choose a folder.`;
      case "EACCES":
        return `Skein may not look into ${root} (permission denied). Give the user running Skein access, or choose another folder.`;
      case "ELOOP":
        return `The path ${root} is a loop of symbolic links. Choose a real folder.`;
      default:
        return `Skein cannot open the folder ${root} (${state.error.message}). Choose another folder.`;
    }
  }
  if (state.kind === "not_directory") {
    return `The path ${root} is a file, not a folder. Choose the folder that holds your project.`;
  }
  if (state.kind === "no_access") {
    return `Skein cannot read and write the folder ${root} (permission denied). Give the user running Skein read and write access, or choose another folder.`;
  }
  const real = await fs.realpath(root);
  if (real === path.parse(real).root) {
    return `The folder ${root} leads to ${real}, the whole filesystem. Choose the folder of one project.`;
  }
  for (const own of ownDirs) {
    const ownReal = await realOrResolved(own);
    if (isInside(real, ownReal)) {
      const where = real === ownReal ? "is" : "is inside";
      return `The folder ${root} ${where} Skein's own data folder (${own}), where Skein keeps its database and files. Choose a folder outside it.`;
    }
    if (isInside(ownReal, real)) {
      // Checkpoints and rollbacks would take Skein's database and worktrees for the project's.
      return `The folder ${root} contains Skein's own data folder (${own}), where Skein keeps its database and files. Choose the folder of one project, which does not hold it.`;
    }
  }
  return null;
}

/** Throws a validation error (BAD_REQUEST) naming the path and the reason, changing nothing. */
export async function assertWorkspaceFolder(
  root: string,
  ownDirs: readonly string[],
  field = "workspaceRoot",
): Promise<void> {
  const problem = await workspaceFolderProblem(root, ownDirs);
  if (problem !== null) throw new ValidationError(problem, [{ path: field, message: problem }]);
}

/** The folder's real path once it meets the rule (what a project holds, issue 35). */
export async function usableRealFolder(root: string, ownDirs: readonly string[]): Promise<string> {
  await assertWorkspaceFolder(root, ownDirs);
  return fs.realpath(root);
}
