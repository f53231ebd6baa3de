import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { GitCommandError, gitText, runGit } from "@skein/checkpoints";
import { GitFinishError } from "./errors.ts";

export type CommitInput = {
  /** The thread's worktree (or the project's checkout). */
  cwd: string;
  message: string;
  /** Only these paths (relative to `cwd`); absent: every change, untracked files included. */
  paths?: readonly string[];
  /**
   * The commit the branch was at when the command decided to commit (its recorded intent). A
   * retry finds its own commit on top of it instead of making a second one.
   */
  expectedParent?: string | null;
};

export type CommitResult = {
  sha: string;
  parent: string | null;
  branch: string | null;
  files: string[];
  /** False when a retry found the commit an earlier attempt made. */
  created: boolean;
};

/** The branch's current commit (null on an unborn branch) and its name (null when detached). */
export async function headOf(cwd: string): Promise<{ sha: string | null; branch: string | null }> {
  await assertRepository(cwd);
  const sha = await gitText(["rev-parse", "--verify", "-q", "HEAD^{commit}"], {
    cwd,
    okCodes: [0, 1],
  });
  const branch = await gitText(["symbolic-ref", "-q", "--short", "HEAD"], { cwd, okCodes: [0, 1] });
  return { sha: sha || null, branch: branch || null };
}

/**
 * Commits the worktree's changes on its branch. The commit is built on a private index and
 * lands with one compare-and-swap of the branch ref, so a failure at any step leaves the branch,
 * the index and the files as they were; the person's identity comes from their git config.
 * Hooks do not run (the commit is built with plumbing); the person's staged state for files not
 * committed is kept.
 */
export async function commitChanges(input: CommitInput): Promise<CommitResult> {
  const { cwd } = input;
  const head = await headOf(cwd);
  if (!head.branch) {
    throw new GitFinishError(
      "detached_head",
      `${cwd} is not on a branch (detached HEAD): check out a branch first`,
    );
  }
  if (input.expectedParent !== undefined && head.sha !== input.expectedParent) {
    const earlier = await earlierCommit(cwd, head.sha, input.expectedParent, input.message);
    if (earlier) return { ...earlier, branch: head.branch, created: false };
    throw new GitFinishError(
      "branch_moved",
      `branch ${head.branch} moved since the commit was asked for (now at ${short(head.sha)}); ask again`,
    );
  }
  const scratch = await mkdtemp(path.join(tmpdir(), "skein-commit-"));
  const env = { GIT_INDEX_FILE: path.join(scratch, "index") };
  try {
    if (head.sha) await runGit(["read-tree", head.sha], { cwd, env });
    const pathspec = input.paths && input.paths.length > 0 ? [...input.paths] : ["."];
    await runGit(["add", "-A", "--", ...pathspec], { cwd, env });
    const tree = await gitText(["write-tree"], { cwd, env });
    const files = (
      await gitText(
        head.sha
          ? ["diff-tree", "-r", "--name-only", "--no-commit-id", head.sha, tree]
          : ["ls-tree", "-r", "--name-only", tree],
        { cwd },
      )
    )
      .split("\n")
      .filter(Boolean);
    if (files.length === 0) {
      throw new GitFinishError(
        "nothing_to_commit",
        input.paths?.length
          ? `nothing to commit in ${input.paths.join(", ")}`
          : `nothing to commit in ${cwd}: the worktree has no changes`,
      );
    }
    const sha = await commitTree(cwd, tree, head.sha, input.message);
    await runGit(
      ["update-ref", "-m", "skein: commit", `refs/heads/${head.branch}`, sha, head.sha ?? ""],
      { cwd },
    );
    // The real index still holds the old versions of what was committed: bring those entries
    // to the new commit (and only those, so other staged work stays staged).
    await runGit(["reset", "-q", sha, "--", ...files], { cwd, okCodes: [0, 1] });
    return { sha, parent: head.sha, branch: head.branch, files, created: true };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function commitTree(
  cwd: string,
  tree: string,
  parent: string | null,
  message: string,
): Promise<string> {
  try {
    return await gitText(["commit-tree", tree, ...(parent ? ["-p", parent] : [])], {
      cwd,
      input: message.endsWith("\n") ? message : `${message}\n`,
    });
  } catch (error) {
    if (
      error instanceof GitCommandError &&
      /tell me who you are|empty ident|name/i.test(error.stderr)
    ) {
      throw new GitFinishError(
        "no_identity",
        "git does not know who you are: set user.name and user.email (git config --global user.name …)",
        { cause: error },
      );
    }
    throw error;
  }
}

/** The commit an earlier attempt made: HEAD on top of `parent` with the same message. */
async function earlierCommit(
  cwd: string,
  headSha: string | null,
  parent: string | null,
  message: string,
): Promise<Omit<CommitResult, "branch" | "created"> | null> {
  if (!headSha) return null;
  const parents = (await gitText(["rev-list", "--parents", "-n", "1", headSha], { cwd }))
    .split(" ")
    .slice(1);
  const expected = parent ? [parent] : [];
  if (parents.join(" ") !== expected.join(" ")) return null;
  const body = await gitText(["log", "-1", "--format=%B", headSha], { cwd });
  if (body.trim() !== message.trim()) return null;
  const files = (
    await gitText(
      parent
        ? ["diff-tree", "-r", "--name-only", "--no-commit-id", parent, headSha]
        : ["ls-tree", "-r", "--name-only", headSha],
      { cwd },
    )
  )
    .split("\n")
    .filter(Boolean);
  return { sha: headSha, parent, files };
}

async function assertRepository(cwd: string): Promise<void> {
  try {
    await runGit(["rev-parse", "--git-dir"], { cwd });
  } catch (error) {
    throw new GitFinishError("not_a_repository", `${cwd} is not a git repository`, {
      cause: error,
    });
  }
}

function short(sha: string | null): string {
  return sha ? sha.slice(0, 8) : "no commit";
}
