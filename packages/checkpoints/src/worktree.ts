import { KeyedQueue } from "@skein/concurrency";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { resolveCheckpoint } from "./checkpoint-refs.ts";
import { CheckpointError, GitCommandError, NotAGitRepositoryError } from "./errors.ts";
import type { GitContext } from "./git-context.ts";
import { runGit } from "./git-runner.ts";
import type {
  IsolatedWorktree,
  IsolatedWorktreeInput,
  RemoveWorktreeInput,
  WorktreeEntry,
} from "./types.ts";

/**
 * Worktree commands run with git's own discovery from the work tree (no GIT_DIR/GIT_WORK_TREE in
 * the environment), because `worktree add` sets those up itself for the new checkout.
 * Hooks are disabled: a fork's working copy is Skein's, and user hooks could be slow or prompt.
 */
function worktreeGit(ctx: GitContext, args: readonly string[]) {
  return runGit(["-c", "core.hooksPath=/dev/null", ...args], { cwd: ctx.workTree });
}

/**
 * git's worktree bookkeeping (`<common dir>/worktrees`) is not safe under concurrent changes: a
 * `worktree add` can read another's half-written entry ("failed to read …/commondir") and fail.
 * Worktree changes of one repository therefore run one at a time (fan-out adds several at once).
 */
const worktreeChanges = new KeyedQueue();

function oneAtATime<T>(ctx: GitContext, change: () => Promise<T>): Promise<T> {
  const worktrees = ctx.gitDir.indexOf(`${path.sep}worktrees${path.sep}`);
  return worktreeChanges.run(worktrees >= 0 ? ctx.gitDir.slice(0, worktrees) : ctx.gitDir, change);
}

function requireRepository(ctx: GitContext, operation: string): void {
  if (ctx.mode !== "repo") throw new NotAGitRepositoryError(ctx.workspaceRoot, operation);
}

/** A new branch at the checkpoint commit, checked out in its own folder, for an isolated fork. */
export async function createIsolatedWorktree(
  ctx: GitContext,
  input: IsolatedWorktreeInput,
): Promise<IsolatedWorktree> {
  requireRepository(ctx, "create an isolated worktree");
  const checkpoint =
    "ref" in input
      ? await resolveCheckpoint(ctx, input.ref)
      : await verifyCommit(ctx, input.commit);
  try {
    await runGit(["check-ref-format", "--branch", input.branch], { cwd: ctx.workTree });
  } catch {
    throw new CheckpointError(`"${input.branch}" is not a valid branch name`);
  }
  const target = path.resolve(input.path);
  try {
    await oneAtATime(ctx, () =>
      worktreeGit(ctx, [
        "worktree",
        "add",
        "--quiet",
        "-b",
        input.branch,
        target,
        checkpoint.commit,
      ]),
    );
  } catch (error) {
    if (error instanceof GitCommandError) {
      throw new CheckpointError(
        `Could not create worktree ${target} on branch ${input.branch}: ${error.stderr.trim()}`,
        { cause: error },
      );
    }
    throw error;
  }
  const worktreePath = await realpath(target);
  return {
    branch: input.branch,
    worktreePath,
    workspacePath: path.resolve(worktreePath, ctx.prefix),
    commit: checkpoint.commit,
  };
}

async function verifyCommit(ctx: GitContext, commit: string): Promise<{ commit: string }> {
  const { stdout, exitCode } = await runGit(
    ["rev-parse", "--verify", "--quiet", "--end-of-options", `${commit}^{commit}`],
    { cwd: ctx.workTree, okCodes: [0, 1] },
  );
  if (exitCode !== 0) throw new CheckpointError(`${commit} is not a commit of this repository`);
  return { commit: stdout.toString("utf8").trim() };
}

/** Removes a fork's worktree (even with uncommitted edits: they belong to the fork being dropped). */
export async function removeWorktree(ctx: GitContext, input: RemoveWorktreeInput): Promise<void> {
  requireRepository(ctx, "remove a worktree");
  await oneAtATime(ctx, async () => {
    await worktreeGit(ctx, ["worktree", "remove", "--force", path.resolve(input.worktreePath)]);
    if (input.deleteBranch !== undefined) {
      await worktreeGit(ctx, ["branch", "-D", "--", input.deleteBranch]);
    }
  });
}

/** Every worktree of the repository (the main one included), as `git worktree list` sees them. */
export async function listWorktrees(ctx: GitContext): Promise<WorktreeEntry[]> {
  requireRepository(ctx, "list worktrees");
  const { stdout } = await worktreeGit(ctx, ["worktree", "list", "--porcelain", "-z"]);
  const entries: WorktreeEntry[] = [];
  let current: WorktreeEntry | null = null;
  for (const field of stdout.toString("utf8").split("\0")) {
    if (field.startsWith("worktree ")) {
      current = { path: field.slice("worktree ".length), branch: null };
      entries.push(current);
    } else if (field.startsWith("branch ") && current) {
      current.branch = field.slice("branch ".length).replace(/^refs\/heads\//, "");
    }
  }
  return entries;
}

/**
 * Whether a worktree holds changes against its own HEAD (tracked or untracked, not ignored).
 * Hygiene keeps such a worktree unless told to drop it; an unreadable one counts as changed.
 * `except`: a folder (relative to the worktree) left out, e.g. a subfolder workspace whose
 * changes checkpoints hold: what lies outside it no checkpoint ever captures.
 */
export async function worktreeHasChanges(worktreePath: string, except?: string): Promise<boolean> {
  try {
    const pathspec = except ? ["--", ":/", `:(top,exclude)${except}`] : [];
    const { stdout } = await runGit(
      ["status", "--porcelain", "-z", "--untracked-files=all", ...pathspec],
      { cwd: worktreePath },
    );
    return stdout.length > 0;
  } catch {
    return true;
  }
}

/** The commit a branch points at, or null when the branch does not exist. */
export async function branchCommit(ctx: GitContext, branch: string): Promise<string | null> {
  requireRepository(ctx, "read a branch");
  const { stdout, exitCode } = await runGit(
    ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`],
    { cwd: ctx.workTree, okCodes: [0, 1] },
  );
  return exitCode === 0 ? stdout.toString("utf8").trim() : null;
}

/** `git worktree prune`: forgets worktrees whose folders are gone. Deletes no object. */
export async function pruneWorktrees(ctx: GitContext): Promise<void> {
  requireRepository(ctx, "prune worktrees");
  await oneAtATime(ctx, () => worktreeGit(ctx, ["worktree", "prune"]));
}
