import type {
  PullRequestCheck,
  PullRequestFact,
  ThreadPullRequest,
} from "../../entities/pull-request.ts";
import type { EventData } from "../../events.ts";
import { addItem, touchShell } from "../mutations.ts";
import type { ThreadState } from "../thread-state.ts";

const MAX_CHECKS = 50;

function addGitItem(s: ThreadState, item: EventData<"GitCommitted">["item"] | null): void {
  if (item) addItem(s, item, null);
}

export function onGitCommitted(s: ThreadState, d: EventData<"GitCommitted">): void {
  addGitItem(s, d.item);
  touchShell(s, d.at);
}

/** Issue 26: a fork's code brought back on its own shows where it happened. */
export function onCodeBroughtBack(s: ThreadState, d: EventData<"CodeBroughtBack">): void {
  addGitItem(s, d.item);
  touchShell(s, d.at);
}

export function onGitPushed(s: ThreadState, d: EventData<"GitPushed">): void {
  addGitItem(s, d.item);
  touchShell(s, d.at);
}

export function onPullRequestOpened(s: ThreadState, d: EventData<"PullRequestOpened">): void {
  if (!s.thread) return;
  s.thread = { ...s.thread, pullRequest: d.pullRequest, updatedAt: d.at };
  addGitItem(s, d.item);
  touchShell(s, d.at);
}

export function onPullRequestFactRecorded(
  s: ThreadState,
  d: EventData<"PullRequestFactRecorded">,
): void {
  s.pullRequestKeys.add(d.fact.key);
  const subject = feedbackSubject(d.fact);
  if (subject) s.pullRequestFeedback.set(subject, d.fact);
  const pr = s.thread?.pullRequest;
  if (s.thread && pr) {
    s.thread = { ...s.thread, pullRequest: withFact(pr, d), updatedAt: d.at };
  }
  addGitItem(s, d.item);
  touchShell(s, d.at);
}

export function onPullRequestFeedbackSent(
  s: ThreadState,
  d: EventData<"PullRequestFeedbackSent">,
): void {
  for (const subject of d.subjects) s.pullRequestSentSubjects.add(subject);
  touchShell(s, d.at);
}

/** `comment:<id>` / `check:<id>` for the facts feedback quotes; null for the rest. */
export function feedbackSubject(fact: PullRequestFact): string | null {
  if (fact.kind === "comment") return `comment:${fact.id}`;
  if (fact.kind === "check") return `check:${fact.id}`;
  return null;
}

export function onPullRequestMerged(s: ThreadState, d: EventData<"PullRequestMerged">): void {
  const pr = s.thread?.pullRequest;
  if (!s.thread || !pr) return;
  const merged: ThreadPullRequest = {
    ...pr,
    state: "merged",
    mergeMethod: d.method,
    updatedAt: d.at,
  };
  s.thread = { ...s.thread, pullRequest: merged, updatedAt: d.at };
  addGitItem(s, d.item);
  touchShell(s, d.at);
}

function withFact(
  pr: ThreadPullRequest,
  d: EventData<"PullRequestFactRecorded">,
): ThreadPullRequest {
  const fact = d.fact;
  const updated = { ...pr, updatedAt: d.at };
  switch (fact.kind) {
    case "state":
      return { ...updated, state: fact.state, headSha: fact.headSha, title: fact.title };
    case "comment":
      return { ...updated, commentCount: pr.commentCount + 1 };
    case "review":
      return { ...updated, reviewCount: pr.reviewCount + 1 };
    case "check":
      return {
        ...updated,
        checks: upsert(pr.checks, {
          id: `check:${fact.id}`,
          name: fact.name,
          status: fact.status,
          conclusion: fact.conclusion,
          headSha: fact.headSha,
          url: fact.url,
        }),
      };
    case "status":
      return {
        ...updated,
        checks: upsert(pr.checks, {
          id: `status:${fact.context}`,
          name: fact.context,
          status: fact.state === "pending" ? "in_progress" : "completed",
          conclusion: fact.state === "pending" ? null : fact.state,
          headSha: fact.headSha,
          url: fact.url,
        }),
      };
  }
}

/** Latest word per check; a check of a newer head replaces the one of an older head. */
function upsert(checks: readonly PullRequestCheck[], check: PullRequestCheck): PullRequestCheck[] {
  const next = checks.filter((c) => c.id !== check.id && c.name !== check.name);
  next.push(check);
  return next.slice(-MAX_CHECKS);
}
