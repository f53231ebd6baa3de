import { execFile } from "node:child_process";
import { Octokit } from "@octokit/rest";
import { GitFinishError } from "./errors.ts";

export type GitHubEnv = {
  GITHUB_TOKEN?: string | undefined;
  GH_TOKEN?: string | undefined;
  /** GitHub Enterprise (`https://host/api/v3`) or a loopback fake in tests. */
  SKEIN_GITHUB_API_URL?: string | undefined;
};

/**
 * The person's token: GITHUB_TOKEN, then GH_TOKEN, then `gh auth token` when the GitHub CLI is
 * installed and signed in (bounded to 5 s). Null when there is none.
 */
export async function resolveGitHubToken(
  env: GitHubEnv,
  gh: () => Promise<string | null> = ghAuthToken,
): Promise<string | null> {
  const fromEnv = env.GITHUB_TOKEN?.trim() || env.GH_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  return gh();
}

function ghAuthToken(): Promise<string | null> {
  return new Promise((resolve) => {
    execFile("gh", ["auth", "token"], { timeout: 5_000 }, (error, stdout) => {
      resolve(error ? null : stdout.trim() || null);
    });
  });
}

export type GitHubClient = Octokit;

/** An Octokit bound to the API URL, with no retries of its own: Skein's poller paces requests. */
export async function createGitHubClient(
  env: GitHubEnv,
  gh?: () => Promise<string | null>,
): Promise<Octokit> {
  const token = await resolveGitHubToken(env, gh);
  if (!token) {
    throw new GitFinishError(
      "no_token",
      "no GitHub token: set GITHUB_TOKEN or GH_TOKEN, or sign in with `gh auth login`",
    );
  }
  return new Octokit({
    auth: token,
    baseUrl: env.SKEIN_GITHUB_API_URL?.replace(/\/+$/, "") || "https://api.github.com",
    userAgent: "skein",
    request: { retries: 0 },
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
}

/** An Octokit failure as a GitFinishError with GitHub's own words. */
export function gitHubFailure(error: unknown, doing: string): Error {
  const status = statusOf(error);
  if (status === undefined) return error as Error;
  const message = gitHubMessage(error);
  if (status === 401) {
    return new GitFinishError(
      "auth",
      `GitHub refused the token while ${doing} (${message}): check GITHUB_TOKEN / GH_TOKEN or \`gh auth login\``,
      { cause: error },
    );
  }
  if (status === 404) {
    return new GitFinishError(
      "no_repository",
      `GitHub has no such repository or pull request, or the token cannot see it (${doing})`,
      { cause: error },
    );
  }
  return new GitFinishError("github", `GitHub answered ${status} while ${doing}: ${message}`, {
    cause: error,
  });
}

export function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/** GitHub's message plus its validation errors' messages (`A pull request already exists …`). */
export function gitHubMessage(error: unknown): string {
  const data = (error as { response?: { data?: unknown } }).response?.data as
    | { message?: string; errors?: { message?: string; code?: string }[] }
    | undefined;
  const details = (data?.errors ?? []).map((e) => e.message ?? e.code).filter(Boolean);
  return [data?.message ?? (error as Error).message, ...details].join(": ");
}
