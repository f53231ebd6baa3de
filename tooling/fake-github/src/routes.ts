import { execFileSync } from "node:child_process";
import {
  checkRunJson,
  pullJson,
  repoJson,
  reviewCommentJson,
  reviewJson,
  statusJson,
} from "./json-views.ts";
import type {
  FakeCheckRun,
  FakePull,
  FakeRepo,
  FakeReview,
  FakeReviewComment,
  FakeStatus,
} from "./model.ts";

export type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

/** Everything the fake holds; the server's scripting methods and the routes share it. */
export class FakeGitHubState {
  readonly repos = new Map<string, FakeRepo>();
  readonly pulls = new Map<string, FakePull[]>();
  readonly checkRuns: (FakeCheckRun & { repo: string })[] = [];
  readonly statuses: (FakeStatus & { repo: string })[] = [];
  readonly comments: (FakeReviewComment & { repo: string })[] = [];
  readonly reviews: (FakeReview & { repo: string })[] = [];
  private nextId = 1000;

  id(): number {
    this.nextId += 1;
    return this.nextId;
  }

  /** The branch's head in the repo's bare copy, or a stable stand-in without one. */
  branchSha(repo: FakeRepo, branch: string): string | null {
    if (!repo.gitDir) return "0".repeat(40);
    try {
      return execFileSync("git", ["rev-parse", "--verify", `refs/heads/${branch}^{commit}`], {
        cwd: repo.gitDir,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim();
    } catch {
      return null;
    }
  }

  pull(key: string, number: number): FakePull | undefined {
    const pull = this.pulls.get(key)?.find((p) => p.number === number);
    if (pull && pull.state === "open" && this.repos.get(key)) {
      const sha = this.branchSha(this.repos.get(key) as FakeRepo, pull.head);
      if (sha && sha !== pull.headSha) {
        pull.headSha = sha;
        pull.updatedAt = new Date().toISOString();
      }
    }
    return pull;
  }
}

const notFound: Reply = { status: 404, body: { message: "Not Found" } };

function unprocessable(message: string, errors: unknown[] = []): Reply {
  return { status: 422, body: { message, errors } };
}

/** One REST route: method, path pattern, handler. */
type Route = {
  method: string;
  pattern: RegExp;
  handle(
    state: FakeGitHubState,
    base: string,
    match: string[],
    query: URLSearchParams,
    body: Record<string, unknown>,
  ): Reply;
};

const REPO = "/repos/([^/]+)/([^/]+)";

function repoOf(state: FakeGitHubState, match: string[]): [string, FakeRepo] | null {
  const key = `${match[1]}/${match[2]}`.toLowerCase();
  const repo = state.repos.get(key);
  return repo ? [key, repo] : null;
}

export const ROUTES: Route[] = [
  {
    method: "GET",
    pattern: new RegExp(`^${REPO}$`),
    handle: (state, base, m) => {
      const found = repoOf(state, m);
      return found ? { status: 200, body: repoJson(base, found[1]) } : notFound;
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`^${REPO}/pulls$`),
    handle: (state, base, m, query) => {
      const found = repoOf(state, m);
      if (!found) return notFound;
      const [key, repo] = found;
      const head = query.get("head");
      const wanted = query.get("state") ?? "open";
      const list = (state.pulls.get(key) ?? [])
        .filter((p) => wanted === "all" || p.state === wanted)
        .filter((p) => !head || `${repo.owner}:${p.head}` === head || p.head === head)
        .map((p) => pullJson(base, repo, state.pull(key, p.number) as FakePull));
      return { status: 200, body: list };
    },
  },
  {
    method: "POST",
    pattern: new RegExp(`^${REPO}/pulls$`),
    handle: (state, base, m, _q, body) => {
      const found = repoOf(state, m);
      if (!found) return notFound;
      const [key, repo] = found;
      const { title, head, base: baseRef, draft } = body;
      if (typeof title !== "string" || typeof head !== "string") {
        return unprocessable("Validation Failed", [{ field: "title/head", code: "missing" }]);
      }
      const headBranch = head.includes(":") ? (head.split(":")[1] as string) : head;
      const target = typeof baseRef === "string" ? baseRef : repo.defaultBranch;
      const sha = state.branchSha(repo, headBranch);
      if (sha === null) {
        return unprocessable("Validation Failed", [
          { resource: "PullRequest", field: "head", code: "invalid" },
        ]);
      }
      const list = state.pulls.get(key) ?? [];
      if (list.some((p) => p.head === headBranch && p.state === "open")) {
        return unprocessable("Validation Failed", [
          {
            resource: "PullRequest",
            code: "custom",
            message: `A pull request already exists for ${repo.owner}:${headBranch}.`,
          },
        ]);
      }
      const now = new Date().toISOString();
      const pull: FakePull = {
        number: list.length + 1,
        title,
        body: typeof body.body === "string" ? body.body : null,
        head: headBranch,
        headSha: sha,
        base: target,
        draft: draft === true,
        state: "open",
        merged: false,
        mergeMethod: null,
        mergeCommitSha: null,
        createdAt: now,
        updatedAt: now,
      };
      state.pulls.set(key, [...list, pull]);
      return { status: 201, body: pullJson(base, repo, pull) };
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`^${REPO}/pulls/(\\d+)$`),
    handle: (state, base, m) => {
      const found = repoOf(state, m);
      const pull = found ? state.pull(found[0], Number(m[3])) : undefined;
      return found && pull ? { status: 200, body: pullJson(base, found[1], pull) } : notFound;
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`^${REPO}/pulls/(\\d+)/comments$`),
    handle: (state, _b, m) => {
      const found = repoOf(state, m);
      if (!found || !state.pull(found[0], Number(m[3]))) return notFound;
      const list = state.comments.filter(
        (c) => c.repo === found[0] && c.pullNumber === Number(m[3]),
      );
      return { status: 200, body: list.map(reviewCommentJson) };
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`^${REPO}/pulls/(\\d+)/reviews$`),
    handle: (state, _b, m) => {
      const found = repoOf(state, m);
      if (!found || !state.pull(found[0], Number(m[3]))) return notFound;
      const list = state.reviews.filter(
        (r) => r.repo === found[0] && r.pullNumber === Number(m[3]),
      );
      return { status: 200, body: list.map(reviewJson) };
    },
  },
  {
    method: "PUT",
    pattern: new RegExp(`^${REPO}/pulls/(\\d+)/merge$`),
    handle: (state, _b, m, _q, body) => mergePull(state, m, body),
  },
  {
    method: "GET",
    pattern: new RegExp(`^${REPO}/commits/([^/]+)/check-runs$`),
    handle: (state, _b, m) => {
      const found = repoOf(state, m);
      if (!found) return notFound;
      const runs = state.checkRuns.filter((r) => r.repo === found[0] && r.headSha === m[3]);
      return {
        status: 200,
        body: { total_count: runs.length, check_runs: runs.map(checkRunJson) },
      };
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`^${REPO}/check-runs/(\\d+)$`),
    handle: (state, _b, m) => {
      const found = repoOf(state, m);
      const run = state.checkRuns.find((r) => r.repo === found?.[0] && r.id === Number(m[3]));
      return run ? { status: 200, body: checkRunJson(run) } : notFound;
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`^${REPO}/commits/([^/]+)/statuses$`),
    handle: (state, _b, m) => {
      const found = repoOf(state, m);
      if (!found) return notFound;
      const list = state.statuses.filter((s) => s.repo === found[0] && s.sha === m[3]);
      return { status: 200, body: list.map(statusJson).reverse() };
    },
  },
];

function mergePull(state: FakeGitHubState, m: string[], body: Record<string, unknown>): Reply {
  const found = repoOf(state, m);
  const pull = found ? state.pull(found[0], Number(m[3])) : undefined;
  if (!found || !pull) return notFound;
  const [, repo] = found;
  if (pull.merged) return { status: 405, body: { message: "Pull Request is not mergeable" } };
  const method = typeof body.merge_method === "string" ? body.merge_method : "merge";
  const allowed =
    (method === "merge" && repo.allowMergeCommit) ||
    (method === "squash" && repo.allowSquashMerge) ||
    (method === "rebase" && repo.allowRebaseMerge);
  if (!allowed) {
    return {
      status: 405,
      body: { message: `${method} merges are not allowed on this repository` },
    };
  }
  if (typeof body.sha === "string" && body.sha !== pull.headSha) {
    return {
      status: 409,
      body: { message: "Head branch was modified. Review and try the merge again." },
    };
  }
  pull.merged = true;
  pull.state = "closed";
  pull.mergeMethod = method;
  pull.mergeCommitSha = pull.headSha;
  pull.updatedAt = new Date().toISOString();
  return {
    status: 200,
    body: { merged: true, sha: pull.headSha, message: "Pull Request successfully merged" },
  };
}
