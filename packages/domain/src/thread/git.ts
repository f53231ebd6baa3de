import type { CommandData } from "../commands.ts";
import type { PullRequestFact } from "../entities/pull-request.ts";
import type { TurnItemOf } from "../entities/turn-item.ts";
import { ConflictError, PreconditionFailedError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { CommandMeta } from "../meta.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { itemBase } from "./builders.ts";
import { requireThread } from "./guards.ts";

type GitItem = TurnItemOf<"git">;

/** A git item of this thread, not tied to a run (shown in the conversation's order). */
export function gitItem(
  s: ThreadState,
  meta: CommandMeta,
  fields: Pick<GitItem, "action" | "title" | "detail" | "url" | "ref">,
): GitItem {
  const thread = s.thread;
  return {
    ...itemBase({
      id: meta.ids.next("item"),
      // requireThread ran first: the thread exists.
      threadId: (thread as NonNullable<typeof thread>).id,
      run: null,
      status: "completed",
      at: meta.at,
    }),
    type: "git",
    ...fields,
  };
}

/** B17: records a commit the thread's worktree got. */
export function recordGitCommit(
  d: CommandData<"RecordGitCommit">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const { commit } = d;
  const subject = commit.message.split("\n")[0] ?? "";
  const item = gitItem(s, meta, {
    action: "committed",
    title: `Committed ${commit.sha.slice(0, 8)} on ${commit.branch}: ${subject}`,
    detail: commit.files.length > 0 ? commit.files.slice(0, 50).join("\n") : null,
    url: null,
    ref: commit.sha,
  });
  return [{ type: "GitCommitted", data: { commit, item, at: meta.at } }];
}

export function recordGitPush(
  d: CommandData<"RecordGitPush">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const { push } = d;
  const item = gitItem(s, meta, {
    action: "pushed",
    title: `Pushed ${push.sha.slice(0, 8)} to ${push.remote}/${push.branch}`,
    detail: null,
    url: null,
    ref: push.sha,
  });
  return [{ type: "GitPushed", data: { push, item, at: meta.at } }];
}

/**
 * Records the thread's pull request. The same PR again records nothing (a retry that found the
 * PR it opened); another PR while one is open is a conflict.
 */
export function recordPullRequest(
  d: CommandData<"RecordPullRequest">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  const known = thread.pullRequest;
  const pr = d.pullRequest;
  if (known && known.repository === pr.repository && known.number === pr.number) return [];
  if (known && known.state === "open") {
    throw new ConflictError(
      `the thread already has pull request #${known.number} open (${known.url}); close or merge it first`,
    );
  }
  const pullRequest = {
    ...pr,
    openedAt: meta.at,
    updatedAt: meta.at,
    checks: [],
    commentCount: 0,
    reviewCount: 0,
    mergeMethod: null,
  };
  const item = gitItem(s, meta, {
    action: "pr_opened",
    title: `Opened pull request #${pr.number}: ${pr.title}`,
    detail: `${pr.head} → ${pr.base} on ${pr.repository}${pr.draft ? " (draft)" : ""}`,
    url: pr.url,
    ref: `pr:${pr.number}`,
  });
  return [{ type: "PullRequestOpened", data: { pullRequest, item, at: meta.at } }];
}

/**
 * One event per fact the thread has not recorded yet (by key): a fact seen again by a later poll,
 * a webhook or another instance records nothing, so each appears once in the timeline.
 */
export function recordPullRequestFacts(
  d: CommandData<"RecordPullRequestFacts">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  const pr = thread.pullRequest;
  if (!pr || pr.number !== d.number) {
    throw new PreconditionFailedError(`the thread has no pull request #${d.number}`);
  }
  const events: ThreadEvent[] = [];
  const seen = new Set<string>();
  for (const fact of d.facts) {
    if (s.pullRequestKeys.has(fact.key) || seen.has(fact.key)) continue;
    seen.add(fact.key);
    const shown = factItem(fact, pr.url);
    const item = shown ? gitItem(s, meta, shown) : null;
    events.push({ type: "PullRequestFactRecorded", data: { fact, item, at: meta.at } });
  }
  return events;
}

function factItem(
  fact: PullRequestFact,
  prUrl: string,
): Pick<GitItem, "action" | "title" | "detail" | "url" | "ref"> | null {
  switch (fact.kind) {
    case "state":
      return fact.state === "open"
        ? null
        : {
            action: "pr_state",
            title: `Pull request ${fact.state}`,
            detail: null,
            url: prUrl,
            ref: fact.key,
          };
    case "check":
      return fact.status === "completed"
        ? {
            action: "check",
            title: `Check ${fact.name}: ${fact.conclusion ?? "done"}`,
            detail: fact.conclusion === "success" ? null : fact.excerpt || null,
            url: fact.url,
            ref: fact.key,
          }
        : null;
    case "status":
      return fact.state === "pending"
        ? null
        : {
            action: "check",
            title: `Status ${fact.context}: ${fact.state}`,
            detail: fact.description,
            url: fact.url,
            ref: fact.key,
          };
    case "comment":
      return {
        action: "review_comment",
        title: `${fact.author} commented on ${fact.path}${fact.line === null ? "" : `:${fact.line}`}`,
        detail: `${fact.body}\n\n${fact.diffHunk}`,
        url: prUrl,
        ref: fact.key,
      };
    case "review":
      return {
        action: "review",
        title: `${fact.author} reviewed: ${fact.state.toLowerCase().replace("_", " ")}`,
        detail: fact.body || null,
        url: prUrl,
        ref: fact.key,
      };
  }
}

/** Marks review comments / checks as sent to the agent; ones already sent are left out. */
export function recordPullRequestFeedback(
  d: CommandData<"RecordPullRequestFeedback">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  for (const subject of d.subjects) {
    if (!s.pullRequestFeedback.has(subject)) {
      throw new PreconditionFailedError(
        `the thread's pull request has no ${subject.replace(":", " ")}`,
      );
    }
  }
  const subjects = d.subjects.filter((subject) => !s.pullRequestSentSubjects.has(subject));
  if (subjects.length === 0) return [];
  return [{ type: "PullRequestFeedbackSent", data: { subjects, runIds: d.runIds, at: meta.at } }];
}

export function recordPullRequestMerged(
  d: CommandData<"RecordPullRequestMerged">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  const pr = thread.pullRequest;
  if (!pr || pr.number !== d.number) {
    throw new PreconditionFailedError(`the thread has no pull request #${d.number}`);
  }
  if (pr.state === "merged") return [];
  const item = gitItem(s, meta, {
    action: "pr_merged",
    title: `Merged pull request #${pr.number} (${d.method})`,
    detail: null,
    url: pr.url,
    ref: d.sha,
  });
  return [{ type: "PullRequestMerged", data: { method: d.method, sha: d.sha, item, at: meta.at } }];
}
