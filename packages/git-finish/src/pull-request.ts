import type { Octokit } from "@octokit/rest";
import { GitFinishError } from "./errors.ts";
import { gitHubFailure } from "./github-client.ts";
import type { RepositoryRef } from "./repository.ts";

export type PullRequestInfo = {
  number: number;
  url: string;
  head: string;
  headSha: string;
  base: string;
  state: "open" | "closed" | "merged";
  draft: boolean;
  title: string;
};

export type OpenPullRequestInput = {
  repo: RepositoryRef;
  head: string;
  base?: string;
  title: string;
  body: string;
  draft?: boolean;
};

type PullJson = {
  number: number;
  html_url: string;
  head: { ref: string; sha: string };
  base: { ref: string };
  state: string;
  draft?: boolean | undefined;
  merged?: boolean | undefined;
  merged_at?: string | null | undefined;
  title: string;
};

export function pullInfo(pull: PullJson): PullRequestInfo {
  const merged = pull.merged === true || Boolean(pull.merged_at);
  return {
    number: pull.number,
    url: pull.html_url,
    head: pull.head.ref,
    headSha: pull.head.sha,
    base: pull.base.ref,
    state: merged ? "merged" : pull.state === "closed" ? "closed" : "open",
    draft: pull.draft === true,
    title: pull.title,
  };
}

/**
 * Opens the pull request for `head`, or finds the open one an earlier attempt made: a crash
 * between GitHub's answer and Skein's append, or a second instance, never opens a second one.
 */
export async function openPullRequest(
  client: Octokit,
  input: OpenPullRequestInput,
): Promise<{ pull: PullRequestInfo; created: boolean }> {
  const existing = await findOpenPull(client, input.repo, input.head);
  if (existing) return { pull: existing, created: false };
  const { owner, name } = input.repo;
  const base = input.base ?? (await defaultBranch(client, input.repo));
  try {
    const { data } = await client.rest.pulls.create({
      owner,
      repo: name,
      head: input.head,
      base,
      title: input.title,
      body: input.body,
      draft: input.draft ?? false,
    });
    return { pull: pullInfo(data as PullJson), created: true };
  } catch (error) {
    const raced = await findOpenPull(client, input.repo, input.head).catch(() => null);
    if (raced) return { pull: raced, created: false };
    throw gitHubFailure(error, `opening a pull request from ${input.head} into ${base}`);
  }
}

export async function findOpenPull(
  client: Octokit,
  repo: RepositoryRef,
  head: string,
): Promise<PullRequestInfo | null> {
  try {
    const { data } = await client.rest.pulls.list({
      owner: repo.owner,
      repo: repo.name,
      head: `${repo.owner}:${head}`,
      state: "open",
      per_page: 5,
    });
    const found = (data as PullJson[]).find((p) => p.head.ref === head);
    return found ? pullInfo(found) : null;
  } catch (error) {
    throw gitHubFailure(error, `looking for an open pull request from ${head}`);
  }
}

async function defaultBranch(client: Octokit, repo: RepositoryRef): Promise<string> {
  try {
    const { data } = await client.rest.repos.get({ owner: repo.owner, repo: repo.name });
    return data.default_branch;
  } catch (error) {
    throw gitHubFailure(error, `reading ${repo.owner}/${repo.name}`);
  }
}

export type MergeMethod = "merge" | "squash" | "rebase";

/**
 * Merges with the first method the repository allows (merge commit, squash, rebase), pinned to
 * `sha` so a push that lands meanwhile is not merged unseen. An already merged PR answers as
 * merged (a retry after a crash).
 */
export async function mergePullRequest(
  client: Octokit,
  repo: RepositoryRef,
  number: number,
  sha: string,
): Promise<{ method: MergeMethod; sha: string }> {
  const { owner, name } = repo;
  let method: MergeMethod;
  try {
    const { data: pull } = await client.rest.pulls.get({ owner, repo: name, pull_number: number });
    if (pull.merged) return { method: "merge", sha: pull.merge_commit_sha ?? sha };
    if (pull.state === "closed") {
      throw new GitFinishError("not_mergeable", `pull request #${number} is closed`);
    }
    const { data } = await client.rest.repos.get({ owner, repo: name });
    const allowed: MergeMethod[] = [];
    if (data.allow_merge_commit !== false) allowed.push("merge");
    if (data.allow_squash_merge !== false) allowed.push("squash");
    if (data.allow_rebase_merge !== false) allowed.push("rebase");
    if (allowed.length === 0) {
      throw new GitFinishError("not_mergeable", `${owner}/${name} allows no merge method`);
    }
    method = allowed[0] as MergeMethod;
  } catch (error) {
    if (error instanceof GitFinishError) throw error;
    throw gitHubFailure(error, `reading pull request #${number}`);
  }
  try {
    const { data } = await client.rest.pulls.merge({
      owner,
      repo: name,
      pull_number: number,
      merge_method: method,
      sha,
    });
    return { method, sha: data.sha };
  } catch (error) {
    throw gitHubFailure(error, `merging pull request #${number}`);
  }
}
