import { GitCommandError, gitText, runGit } from "@skein/checkpoints";
import { headOf } from "./commit.ts";
import { GitFinishError } from "./errors.ts";

export type PushInput = {
  cwd: string;
  /** Absent: the branch's configured remote, else the only remote, else `origin`. */
  remote?: string;
  /** The remote branch; absent: the local branch's own name. */
  branch?: string;
};

export type PushResult = { remote: string; branch: string; sha: string; remoteUrl: string };

/**
 * Pushes the checked-out branch with the person's own remotes and credentials. Never forced: a
 * remote that moved is a `rejected` error and nothing changes on either side. Pushing what the
 * remote already has succeeds again, so a retry is harmless.
 */
export async function pushBranch(input: PushInput): Promise<PushResult> {
  const { cwd } = input;
  const head = await headOf(cwd);
  if (!head.branch || !head.sha) {
    throw new GitFinishError("detached_head", `${cwd} has no branch with a commit to push`);
  }
  const remote = input.remote ?? (await defaultRemote(cwd, head.branch));
  const remoteUrl = await remoteUrlOf(cwd, remote);
  const branch = input.branch ?? head.branch;
  try {
    await runGit(["push", remote, `${head.sha}:refs/heads/${branch}`], {
      cwd,
      env: { GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? "ssh -o BatchMode=yes" },
    });
  } catch (error) {
    throw pushFailure(error, remote, branch);
  }
  return { remote, branch, sha: head.sha, remoteUrl };
}

/** The URL `remote` pushes to, or a `no_remote` error naming the remotes there are. */
export async function remoteUrlOf(cwd: string, remote: string): Promise<string> {
  const url = await gitText(["remote", "get-url", "--push", remote], { cwd }).catch(() => "");
  if (url) return url;
  const remotes = await listRemotes(cwd);
  throw new GitFinishError(
    "no_remote",
    remotes.length === 0
      ? "the repository has no remote to push to: add one (git remote add origin <url>)"
      : `there is no remote named ${remote} (remotes: ${remotes.join(", ")})`,
  );
}

/**
 * The remote's URL as the person configured it (before `insteadOf` rewrites): what names the
 * repository on GitHub, even when git is told to reach it some other way.
 */
export async function configuredRemoteUrl(cwd: string, remote: string): Promise<string> {
  const url = await gitText(["config", "--get", `remote.${remote}.url`], { cwd, okCodes: [0, 1] });
  return url || remoteUrlOf(cwd, remote);
}

export async function defaultRemote(cwd: string, branch: string): Promise<string> {
  const configured = await gitText(["config", "--get", `branch.${branch}.remote`], {
    cwd,
    okCodes: [0, 1],
  });
  if (configured) return configured;
  const remotes = await listRemotes(cwd);
  return remotes.length === 1 ? (remotes[0] as string) : "origin";
}

async function listRemotes(cwd: string): Promise<string[]> {
  return (await gitText(["remote"], { cwd })).split("\n").filter(Boolean);
}

function pushFailure(error: unknown, remote: string, branch: string): Error {
  if (!(error instanceof GitCommandError)) return error as Error;
  const text = error.stderr;
  if (/\[rejected\]|non-fast-forward|fetch first|stale info/i.test(text)) {
    return new GitFinishError(
      "rejected",
      `${remote} refused the push to ${branch}: it has commits this branch does not (not a fast-forward). Pull or rebase, then push again`,
      { cause: error },
    );
  }
  if (
    /authentication failed|could not read username|permission denied|403|401|access denied|publickey/i.test(
      text,
    )
  ) {
    return new GitFinishError(
      "auth",
      `${remote} refused your credentials for the push to ${branch}: sign in to the remote (credential helper or SSH key) and push again`,
      { cause: error },
    );
  }
  if (
    /does not appear to be a git repository|could not read from remote|repository .* not found|unable to access/i.test(
      text,
    )
  ) {
    return new GitFinishError("no_remote", `${remote} could not be reached: ${lastLine(text)}`, {
      cause: error,
    });
  }
  if (/remote rejected|pre-receive hook declined/i.test(text)) {
    return new GitFinishError(
      "rejected",
      `${remote} declined the push to ${branch}: ${lastLine(text)}`,
      {
        cause: error,
      },
    );
  }
  return error;
}

function lastLine(text: string): string {
  const lines = text
    .trim()
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("To "));
  return lines.at(-1)?.replace(/^(fatal|error):\s*/, "") ?? "unknown failure";
}
