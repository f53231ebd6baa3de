import type { Octokit } from "@octokit/rest";
import { gitHubFailure, statusOf } from "./github-client.ts";
import {
  boundedBody,
  checkObservation,
  commentObservation,
  type PrObservation,
} from "./observations.ts";
import { pullInfo } from "./pull-request.ts";
import type { RepositoryRef } from "./repository.ts";

export const DEFAULT_POLL_INTERVAL_MS = 30_000;
/** The longest a poller waits after failures (its backoff doubles up to this). */
export const MAX_POLL_BACKOFF_MS = 15 * 60_000;

export type PollResult = {
  observations: PrObservation[];
  /** When to poll next, from now: the interval, or what GitHub asked (retry-after, reset). */
  nextPollInMs: number;
  /** Requests GitHub answered 304 (nothing new, no rate-limit cost). */
  notModified: number;
  /** Set when this poll stopped early: rate limited, or a failure (its words). */
  stopped: { reason: "rate_limited" | "failed"; message: string } | null;
};

type Cached = { etag: string; data: unknown };

/**
 * Polls one pull request: its state, then its head's check runs and statuses, its review
 * comments and reviews, each with the ETag of its last answer (a 304 costs no rate limit and
 * repeats the cached answer). A 403/429 with `retry-after` (or an exhausted rate limit) ends the
 * poll and sets the next one after the wait GitHub asked; other failures back off, doubling up
 * to MAX_POLL_BACKOFF_MS. Only the first page (100) of each list is read.
 */
export class PullRequestPoller {
  private readonly cache = new Map<string, Cached>();
  private failures = 0;

  /**
   * `client` may be a getter: the token is then read at the first poll (a person who signs in
   * with `gh` after Skein started is picked up), and a failure to get one is that poll's failure.
   */
  constructor(
    private readonly client: Octokit | (() => Promise<Octokit>),
    private readonly repo: RepositoryRef,
    private readonly number: number,
    private readonly intervalMs = DEFAULT_POLL_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  async poll(): Promise<PollResult> {
    const observations: PrObservation[] = [];
    let notModified = 0;
    let resolved: Octokit | null = null;
    const get = async <T>(route: string, params: Record<string, unknown>): Promise<T> => {
      const key = `${route} ${JSON.stringify(params)}`;
      const cached = this.cache.get(key);
      try {
        // One client per poll: a getter (and `gh auth token`) runs once, not per request.
        resolved ??= typeof this.client === "function" ? await this.client() : this.client;
        const response = await resolved.request(route, {
          ...params,
          headers: cached ? { "if-none-match": cached.etag } : {},
        });
        const etag = response.headers.etag;
        if (etag) this.cache.set(key, { etag, data: response.data });
        return response.data as T;
      } catch (error) {
        if (statusOf(error) === 304 && cached) {
          notModified += 1;
          return cached.data as T;
        }
        throw error;
      }
    };
    const { owner, name } = this.repo;
    const base = { owner, repo: name };
    try {
      const pull = pullInfo(
        await get("GET /repos/{owner}/{repo}/pulls/{pull_number}", {
          ...base,
          pull_number: this.number,
        }),
      );
      observations.push({
        kind: "state",
        key: `state:${pull.state}:${pull.headSha}`,
        state: pull.state,
        headSha: pull.headSha,
        title: pull.title,
      });
      const ref = { ...base, ref: pull.headSha, per_page: 100 };
      const checks = await get<{ check_runs: Parameters<typeof checkObservation>[0][] }>(
        "GET /repos/{owner}/{repo}/commits/{ref}/check-runs",
        ref,
      );
      for (const run of checks.check_runs) observations.push(checkObservation(run));
      const statuses = await get<StatusJson[]>(
        "GET /repos/{owner}/{repo}/commits/{ref}/statuses",
        ref,
      );
      for (const status of statuses) observations.push(statusObservation(status, pull.headSha));
      const pullParams = { ...base, pull_number: this.number, per_page: 100 };
      const comments = await get<Parameters<typeof commentObservation>[0][]>(
        "GET /repos/{owner}/{repo}/pulls/{pull_number}/comments",
        pullParams,
      );
      for (const comment of comments) observations.push(commentObservation(comment));
      const reviews = await get<ReviewJson[]>(
        "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews",
        pullParams,
      );
      for (const review of reviews) {
        observations.push({
          kind: "review",
          key: `review:${review.id}`,
          id: review.id,
          state: review.state,
          body: boundedBody(review.body),
          author: review.user?.login ?? "someone",
        });
      }
      this.failures = 0;
      return { observations, nextPollInMs: this.intervalMs, notModified, stopped: null };
    } catch (error) {
      const wait = rateLimitWait(error, this.now());
      if (wait !== null) {
        return {
          observations,
          nextPollInMs: Math.min(Math.max(wait, this.intervalMs), MAX_POLL_BACKOFF_MS),
          notModified,
          stopped: { reason: "rate_limited", message: gitHubFailure(error, "polling").message },
        };
      }
      this.failures += 1;
      const backoff = Math.min(this.intervalMs * 2 ** this.failures, MAX_POLL_BACKOFF_MS);
      return {
        observations,
        nextPollInMs: backoff,
        notModified,
        stopped: { reason: "failed", message: gitHubFailure(error, "polling").message },
      };
    }
  }
}

type StatusJson = {
  id: number;
  context: string;
  state: string;
  description: string | null;
  target_url: string | null;
};
type ReviewJson = { id: number; state: string; body: string; user: { login: string } | null };

function statusObservation(status: StatusJson, headSha: string): PrObservation {
  return {
    kind: "status",
    key: `status:${status.id}`,
    id: status.id,
    context: status.context,
    headSha,
    state: status.state,
    description: status.description,
    url: status.target_url,
  };
}

/**
 * How long GitHub asked to wait, in ms: `retry-after` seconds on a 403/429, or the time until
 * `x-ratelimit-reset` when the remaining count is 0. Null when the failure is not a rate limit.
 */
export function rateLimitWait(error: unknown, nowMs: number): number | null {
  const status = statusOf(error);
  if (status !== 403 && status !== 429) return null;
  const headers = ((error as { response?: { headers?: Record<string, string> } }).response
    ?.headers ?? {}) as Record<string, string | undefined>;
  const retryAfter = Number(headers["retry-after"]);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return retryAfter * 1000;
  if (headers["x-ratelimit-remaining"] === "0") {
    const reset = Number(headers["x-ratelimit-reset"]);
    if (Number.isFinite(reset)) return Math.max(0, reset * 1000 - nowMs);
  }
  return status === 429 ? 60_000 : null;
}
