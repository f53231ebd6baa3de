import { z } from "zod";
import {
  GitCommitRecord,
  GitPushRecord,
  PullRequestFact,
  ThreadPullRequest,
} from "../entities/pull-request.ts";
import { CheckpointFileSummary } from "../entities/checkpoint.ts";
import { CheckpointId, RunId, ThreadId } from "../ids.ts";
import { defineCommand } from "./define.ts";

/** B17: a commit made in the thread's worktree (the effect already happened). */
export const RecordGitCommit = defineCommand("RecordGitCommit", {
  threadId: ThreadId,
  commit: GitCommitRecord,
});

export const RecordGitPush = defineCommand("RecordGitPush", {
  threadId: ThreadId,
  push: GitPushRecord,
});

/** The pull request opened (or found open) for the thread's branch. */
export const RecordPullRequest = defineCommand("RecordPullRequest", {
  threadId: ThreadId,
  pullRequest: ThreadPullRequest.omit({
    openedAt: true,
    updatedAt: true,
    checks: true,
    commentCount: true,
    reviewCount: true,
    mergeMethod: true,
  }),
});

/** What a poll or webhook saw; facts whose key the thread has are dropped. */
export const RecordPullRequestFacts = defineCommand("RecordPullRequestFacts", {
  threadId: ThreadId,
  number: z.number().int().positive(),
  facts: z.array(PullRequestFact).max(500),
});

/** Review comments / failing checks sent to the agent (by fact subject: `comment:<id>`, `check:<id>`). */
export const RecordPullRequestFeedback = defineCommand("RecordPullRequestFeedback", {
  threadId: ThreadId,
  subjects: z.array(z.string().min(1).max(100)).min(1).max(200),
  runIds: z.array(RunId).max(200),
});

export const RecordPullRequestMerged = defineCommand("RecordPullRequestMerged", {
  threadId: ThreadId,
  number: z.number().int().positive(),
  method: z.string().min(1),
  sha: z.string(),
});

/**
 * Issue 26: a fork's code brought into this thread's workspace without its conversation (no run,
 * no handoff). The files are already written; `undoCheckpointId` is the safety checkpoint of the
 * workspace from just before, recorded first: rolling back to it undoes the bring-back.
 */
export const RecordCodeBroughtBack = defineCommand("RecordCodeBroughtBack", {
  threadId: ThreadId,
  forkThreadId: ThreadId,
  undoCheckpointId: CheckpointId,
  files: z.array(CheckpointFileSummary).min(1).max(10_000),
});
