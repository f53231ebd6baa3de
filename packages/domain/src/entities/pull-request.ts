import { z } from "zod";
import { IsoTimestamp } from "./common.ts";

/** B17: one fact a pull request's watch saw, named by `key` (recorded once per thread). */
const FactBase = { key: z.string().min(1).max(300) };
export const PullRequestFact = z.discriminatedUnion("kind", [
  z.object({
    ...FactBase,
    kind: z.literal("state"),
    state: z.enum(["open", "closed", "merged"]),
    headSha: z.string(),
    title: z.string(),
  }),
  z.object({
    ...FactBase,
    kind: z.literal("check"),
    id: z.number().int(),
    name: z.string(),
    headSha: z.string(),
    status: z.string(),
    conclusion: z.string().nullable(),
    excerpt: z.string().max(10_000),
    url: z.string().nullable(),
  }),
  z.object({
    ...FactBase,
    kind: z.literal("status"),
    id: z.number().int(),
    context: z.string(),
    headSha: z.string(),
    state: z.string(),
    description: z.string().nullable(),
    url: z.string().nullable(),
  }),
  z.object({
    ...FactBase,
    kind: z.literal("comment"),
    id: z.number().int(),
    path: z.string(),
    line: z.number().int().nullable(),
    diffHunk: z.string().max(10_000),
    body: z.string().max(10_000),
    author: z.string(),
  }),
  z.object({
    ...FactBase,
    kind: z.literal("review"),
    id: z.number().int(),
    state: z.string(),
    body: z.string().max(10_000),
    author: z.string(),
  }),
]);
export type PullRequestFact = z.infer<typeof PullRequestFact>;

/** A check's (or commit status's) latest word, as the PR card shows it. */
export const PullRequestCheck = z.object({
  /** `check:<id>` or `status:<context>`. */
  id: z.string(),
  name: z.string(),
  status: z.string(),
  conclusion: z.string().nullable(),
  headSha: z.string(),
  url: z.string().nullable(),
});
export type PullRequestCheck = z.infer<typeof PullRequestCheck>;

/** B17: the pull request a thread opened, as its watch last saw it. */
export const ThreadPullRequest = z.object({
  /** `owner/name`. */
  repository: z.string().min(3),
  number: z.number().int().positive(),
  url: z.string().min(1),
  head: z.string().min(1),
  base: z.string().min(1),
  headSha: z.string(),
  title: z.string(),
  draft: z.boolean(),
  state: z.enum(["open", "closed", "merged"]),
  openedAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
  /** Latest per check run / status context, first seen first; at most 50. */
  checks: z.array(PullRequestCheck),
  commentCount: z.number().int().nonnegative(),
  reviewCount: z.number().int().nonnegative(),
  mergeMethod: z.string().nullable(),
});
export type ThreadPullRequest = z.infer<typeof ThreadPullRequest>;

/** What a commit or push from the thread recorded. */
export const GitCommitRecord = z.object({
  sha: z.string().min(7),
  parent: z.string().nullable(),
  branch: z.string().min(1),
  message: z.string(),
  files: z.array(z.string()),
});
export type GitCommitRecord = z.infer<typeof GitCommitRecord>;
export const GitPushRecord = z.object({
  remote: z.string().min(1),
  branch: z.string().min(1),
  sha: z.string().min(7),
});
export type GitPushRecord = z.infer<typeof GitPushRecord>;
