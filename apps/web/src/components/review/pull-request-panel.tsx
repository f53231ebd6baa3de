"use client";
import type { ThreadShell } from "../../lib/types.ts";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { useAction } from "../../lib/use-action.ts";
import { useThread } from "../../lib/use-thread-context.tsx";
import { ActionError } from "../common/action-error.tsx";

type PullRequest = NonNullable<ThreadShell["pullRequest"]>;
type Check = { id: string; name: string; status: string; conclusion: string | null };

/** A check's state in one word a person reads at a glance. */
function checkWord(check: Check): "passed" | "failed" | "running" | "skipped" {
  if (check.status !== "completed") return "running";
  if (check.conclusion === "skipped" || check.conclusion === "neutral") return "skipped";
  return check.conclusion === "success" || check.conclusion === null ? "passed" : "failed";
}

/**
 * B17 on the Review page: commit the thread's changes, push its branch, open the pull request;
 * then the PR card — state, checks, review counts — with "check GitHub now", sending the waiting
 * review comments and failing checks to the agent (or letting them go automatically), and merge.
 */
export function PullRequestPanel() {
  const { detail, threadId, refresh } = useThread();
  const client = useApi();
  const action = useAction();
  const [message, setMessage] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  if (!detail) return null;
  const thread = detail.thread;
  const pr = thread.pullRequest ?? null;
  const id = threadId as never;
  const act = (work: () => Promise<string>) =>
    void action.run(async () => {
      setNotice(null);
      setNotice(await work());
      refresh();
    });

  const commit = () =>
    act(async () => {
      const done = await client.git.commit.mutate({
        threadId: id,
        ...(message.trim() ? { message: message.trim() } : {}),
      });
      setMessage("");
      const files = `${done.files.length} ${done.files.length === 1 ? "file" : "files"}`;
      return `Committed ${files} as ${done.sha.slice(0, 7)} on ${done.branch}.`;
    });
  const push = () =>
    act(async () => {
      const done = await client.git.push.mutate({ threadId: id });
      return `Pushed ${done.branch} to ${done.remote}.`;
    });
  const open = () =>
    act(async () => {
      const done = await client.pr.open.mutate({ threadId: id });
      return done.created
        ? `Opened pull request #${done.number}.`
        : `Pull request #${done.number} was already open for ${done.head}.`;
    });

  return (
    <section className="panel pr-panel" aria-label="Commit and pull request">
      <form
        className="row pr-finish"
        onSubmit={(event) => {
          event.preventDefault();
          commit();
        }}
      >
        <label className="pr-message">
          <span className="sr-only">Commit message</span>
          <input
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            placeholder="Commit message (drafted from the thread when empty)"
            maxLength={5_000}
          />
        </label>
        <button type="submit" disabled={action.pending}>
          Commit
        </button>
        <button type="button" onClick={push} disabled={action.pending}>
          Push
        </button>
        {pr === null && (
          <button type="button" onClick={open} disabled={action.pending}>
            Open pull request
          </button>
        )}
      </form>
      {pr && (
        <PullRequestCard
          threadId={threadId}
          pr={pr}
          autoFeedback={thread.autoFeedback === true}
          pending={action.pending}
          act={act}
        />
      )}
      {notice && (
        <p className="pr-notice" role="status">
          {notice}
        </p>
      )}
      <ActionError error={action.failure} />
    </section>
  );
}

function PullRequestCard({
  threadId,
  pr,
  autoFeedback,
  pending,
  act,
}: {
  threadId: string;
  pr: PullRequest;
  autoFeedback: boolean;
  pending: boolean;
  act: (work: () => Promise<string>) => void;
}) {
  const client = useApi();
  const id = threadId as never;
  const current = pr.checks.filter((c) => c.headSha === pr.headSha);
  return (
    <div className="pr-card" data-state={pr.state}>
      <p className="pr-title">
        <a href={pr.url} target="_blank" rel="noreferrer">
          #{pr.number} {pr.title}
        </a>{" "}
        <span className={`badge pr-state-${pr.state}`}>{pr.state}</span>{" "}
        <span className="muted">
          {pr.head} → {pr.base} · {pr.commentCount} review{" "}
          {pr.commentCount === 1 ? "comment" : "comments"} · {pr.reviewCount}{" "}
          {pr.reviewCount === 1 ? "review" : "reviews"}
        </span>
      </p>
      {current.length > 0 && (
        <ul className="pr-checks" aria-label="Checks">
          {current.map((check) => (
            <li key={check.id} data-result={checkWord(check)}>
              <span className="pr-check-name">{check.name}</span> {checkWord(check)}
            </li>
          ))}
        </ul>
      )}
      {pr.state === "open" && (
        <div className="row">
          <button
            type="button"
            disabled={pending}
            onClick={() =>
              act(async () => {
                const done = await client.pr.sync.mutate({ threadId: id });
                return done.recorded > 0
                  ? `GitHub had ${done.recorded} new ${done.recorded === 1 ? "thing" : "things"} to show.`
                  : "Nothing new on GitHub.";
              })
            }
          >
            Check GitHub now
          </button>
          <button
            type="button"
            disabled={pending}
            onClick={() =>
              act(async () => {
                const done = await client.pr.sendFeedback.mutate({ threadId: id });
                return `Sent ${done.runIds.length} ${done.runIds.length === 1 ? "message" : "messages"} to the agent.`;
              })
            }
          >
            Send waiting feedback to the agent
          </button>
          <button
            type="button"
            disabled={pending}
            onClick={() =>
              act(async () => {
                const done = await client.pr.merge.mutate({ threadId: id });
                return `Merged pull request #${pr.number} (${done.method}).`;
              })
            }
          >
            Merge
          </button>
          <label className="pr-auto">
            <input
              type="checkbox"
              checked={autoFeedback}
              disabled={pending}
              onChange={(event) => {
                const on = event.target.checked;
                act(async () => {
                  await client.thread.updateSettings.mutate({ threadId: id, autoFeedback: on });
                  return on
                    ? "New review comments and failing checks now go to the agent by themselves."
                    : "Review feedback now waits for you to send it.";
                });
              }}
            />{" "}
            Send new review comments and failing checks automatically
          </label>
        </div>
      )}
    </div>
  );
}
