import type { RunId, ThreadId } from "@skein/domain";

/** B17: the git and pull-request commands, as the API takes and answers them. */
export type GitCommitInput = {
  threadId: ThreadId;
  /** Absent: drafted from the thread's title and its runs' requests. */
  message?: string;
  /** Only these paths, relative to the thread's worktree; absent: every change. */
  paths?: string[];
  commandId?: string;
};
export type GitCommitAnswer = {
  sha: string;
  branch: string;
  files: string[];
  message: string;
  sequence: number;
};

export type GitPushInput = {
  threadId: ThreadId;
  remote?: string;
  branch?: string;
  commandId?: string;
};
export type GitPushAnswer = { remote: string; branch: string; sha: string; sequence: number };

export type PrOpenInput = {
  threadId: ThreadId;
  title?: string;
  body?: string;
  base?: string;
  draft?: boolean;
  /** `owner/name`; absent: the project's setting, else read from the push remote's URL. */
  repository?: string;
  commandId?: string;
};
export type PrOpenAnswer = {
  number: number;
  url: string;
  repository: string;
  head: string;
  base: string;
  /** False when the branch already had this pull request open (nothing new was opened). */
  created: boolean;
  sequence: number;
};

export type PrSyncAnswer = {
  /** Facts recorded by this sync (each fact is recorded once per thread). */
  recorded: number;
  /** When the watch polls next on its own. */
  nextPollInMs: number;
  /** Why this poll stopped early (rate limited, a failure), in words. */
  stopped: string | null;
  sequence: number;
};

export type PrFeedbackInput = {
  threadId: ThreadId;
  /** Review comments to send (GitHub ids); absent with no check ids: every comment not yet sent. */
  commentIds?: number[];
  /** Failing check runs to send; each becomes its own "fix the failing check" message. */
  checkRunIds?: number[];
  commandId?: string;
};
export type PrFeedbackAnswer = { runIds: RunId[]; sequence: number };

/** B17: a comment the person wrote on a diff line in Skein's Review page. */
export type ReviewCommentInput = {
  threadId: ThreadId;
  /** The file, relative to the thread's workspace. */
  path: string;
  /** The line in the changed file (null: the file as a whole). */
  line: number | null;
  /** The hunk the line sits in, as the Review page shows it. */
  diffHunk: string;
  body: string;
  commandId?: string;
};
export type ReviewCommentAnswer = { runId: RunId; sequence: number };

export type PrMergeInput = { threadId: ThreadId; commandId?: string };
export type PrMergeAnswer = { method: string; sha: string; sequence: number };
