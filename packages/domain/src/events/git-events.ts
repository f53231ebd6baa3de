import { z } from "zod";
import {
  GitCommitRecord,
  GitPushRecord,
  PullRequestFact,
  ThreadPullRequest,
} from "../entities/pull-request.ts";
import { GitItem } from "../entities/turn-item.ts";
import { CheckpointFileSummary } from "../entities/checkpoint.ts";
import { CheckpointId, RunId, ThreadId } from "../ids.ts";
import { defineEvent } from "./define.ts";

export const GitCommitted = defineEvent("GitCommitted", { commit: GitCommitRecord, item: GitItem });
export const GitPushed = defineEvent("GitPushed", { push: GitPushRecord, item: GitItem });
export const PullRequestOpened = defineEvent("PullRequestOpened", {
  pullRequest: ThreadPullRequest,
  item: GitItem,
});
/** One new fact; `item` is null for facts the timeline does not show (a check still running). */
export const PullRequestFactRecorded = defineEvent("PullRequestFactRecorded", {
  fact: PullRequestFact,
  item: GitItem.nullable(),
});
export const PullRequestFeedbackSent = defineEvent("PullRequestFeedbackSent", {
  subjects: z.array(z.string()),
  runIds: z.array(RunId),
});
export const PullRequestMerged = defineEvent("PullRequestMerged", {
  method: z.string(),
  sha: z.string(),
  item: GitItem,
});
/** Issue 26: a fork's code landed in the workspace on its own (see RecordCodeBroughtBack). */
export const CodeBroughtBack = defineEvent("CodeBroughtBack", {
  forkThreadId: ThreadId,
  undoCheckpointId: CheckpointId,
  files: z.array(CheckpointFileSummary),
  item: GitItem,
});
