/**
 * The fake's GitHub objects, shaped like the REST API's answers (only the fields Skein reads,
 * plus the ones a client would expect to find).
 */
export type FakeRepoOptions = {
  defaultBranch?: string;
  allowMergeCommit?: boolean;
  allowSquashMerge?: boolean;
  allowRebaseMerge?: boolean;
  /** A bare repository standing in for GitHub's copy: branch heads are read from it. */
  gitDir?: string;
};

export type FakeRepo = {
  owner: string;
  name: string;
  defaultBranch: string;
  allowMergeCommit: boolean;
  allowSquashMerge: boolean;
  allowRebaseMerge: boolean;
  gitDir: string | undefined;
};

export type FakePull = {
  number: number;
  title: string;
  body: string | null;
  head: string;
  /** The head commit as of the last read (from `gitDir` when the repo has one). */
  headSha: string;
  base: string;
  draft: boolean;
  state: "open" | "closed";
  merged: boolean;
  mergeMethod: string | null;
  mergeCommitSha: string | null;
  createdAt: string;
  updatedAt: string;
};

export type FakeCheckRun = {
  id: number;
  headSha: string;
  name: string;
  status: "queued" | "in_progress" | "completed";
  conclusion: "success" | "failure" | "neutral" | "cancelled" | "timed_out" | null;
  output: { title: string | null; summary: string | null; text: string | null };
  detailsUrl: string | null;
};

export type FakeStatus = {
  id: number;
  sha: string;
  context: string;
  state: "pending" | "success" | "failure" | "error";
  description: string | null;
  targetUrl: string | null;
  createdAt: string;
};

export type FakeReviewComment = {
  id: number;
  pullNumber: number;
  path: string;
  line: number | null;
  side: "LEFT" | "RIGHT";
  diffHunk: string;
  body: string;
  user: string;
  commitId: string;
  createdAt: string;
};

export type FakeReview = {
  id: number;
  pullNumber: number;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED";
  body: string;
  user: string;
  commitId: string;
  submittedAt: string;
};

/** A reply the next matching request gets instead of the normal one. */
export type GitHubFault = {
  /** Matches `METHOD /path` (path without query), e.g. /^GET \/repos\/.+\/pulls\/1$/. */
  match?: RegExp;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
};

export type RecordedGitHubRequest = {
  method: string;
  /** Path with its query string. */
  url: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  status: number;
};
