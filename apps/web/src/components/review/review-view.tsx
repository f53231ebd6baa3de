"use client";
import { useSearchParams } from "next/navigation";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { describeError } from "../../lib/errors.ts";
import { queryKeys } from "../../lib/query/keys.ts";
import { readLastSeenRun, writeLastSeenRun } from "../../lib/review-seen.ts";
import { useThread } from "../../lib/use-thread-context.tsx";
import { checkpointRunPhrase } from "../../lib/checkpoint-label.ts";
import { runHeaderLabel } from "../../lib/run-label.ts";
import { useLineage } from "../../lib/use-run-number.ts";
import { ActionError } from "../common/action-error.tsx";
import { type DiffViewType, FileDiff } from "./file-diff.tsx";
import { FileList } from "./file-list.tsx";
import { LineComment, type LineTarget } from "./line-comment.tsx";
import { PullRequestPanel } from "./pull-request-panel.tsx";
import type { ReviewDiff } from "./review-types.ts";
import { targetLabel, useRevert } from "./use-revert.ts";
import "react-diff-view/style/index.css";
import "./review.css";

type Scope = { kind: "thread" } | { kind: "since" } | { kind: "run"; runId: string };

function scopeKey(scope: Scope): string {
  return scope.kind === "run" ? `run:${scope.runId}` : scope.kind;
}

function parseScope(value: string): Scope {
  if (value.startsWith("run:")) return { kind: "run", runId: value.slice(4) };
  return value === "since" ? { kind: "since" } : { kind: "thread" };
}

/**
 * Review: what the agent changed, from the thread's checkpoints — the whole thread, one run, or
 * everything since the person last marked the changes as seen — as unified or split diffs.
 */
export function ReviewView() {
  const { detail, threadId, refresh } = useThread();
  const { numberOf, asideRunsOf } = useLineage();
  // E3: runs as their headers name them (a compaction takes no number), not by ordinal.
  const runOf = (runId: string | null) => detail?.runs.find((run) => run.id === runId);
  const after = (point: { runId: string | null; appRunOrdinal: number | null }) =>
    `after ${checkpointRunPhrase(runOf(point.runId), threadId, point.appRunOrdinal, numberOf, asideRunsOf)}`;
  const client = useApi();
  const params = useSearchParams();
  const [scope, setScope] = useState<Scope>(() => {
    const run = params.get("run");
    return run ? { kind: "run", runId: run } : { kind: "thread" };
  });
  const [viewType, setViewType] = useState<DiffViewType>("unified");
  const [lastSeen, setLastSeen] = useState<string | null>(null);
  const [commenting, setCommenting] = useState<LineTarget | null>(null);
  const [commentSent, setCommentSent] = useState<string | null>(null);

  useEffect(() => setLastSeen(readLastSeenRun(threadId)), [threadId]);

  const runs = useMemo(() => {
    // Runs' own checkpoints only (a safety checkpoint has no run ordinal of its own).
    const rows = (detail?.checkpoints ?? []).filter(
      (c) => c.status === "ready" && c.runId && c.appRunOrdinal !== null,
    );
    return rows.map((c) => ({ runId: c.runId as string, ordinal: c.appRunOrdinal }));
  }, [detail?.checkpoints]);
  // Read again whenever a checkpoint is added or changes status (a run ended, a rollback).
  const checkpointsKey = (detail?.checkpoints ?? []).map((c) => `${c.id}:${c.status}`).join();
  const seenIsKnown = lastSeen !== null && runs.some((r) => r.runId === lastSeen);

  const selection = useMemo(
    () =>
      scope.kind === "run"
        ? { threadId, runId: scope.runId }
        : scope.kind === "since" && seenIsKnown && lastSeen
          ? { threadId, sinceRunId: lastSeen }
          : { threadId },
    [threadId, scope, seenIsKnown, lastSeen],
  );
  const reverts = useRevert(selection, refresh);

  // The shown diff stays until another selection's answer lands (no empty flash between).
  const query = useQuery({
    queryKey: queryKeys.reviewDiff(threadId, selection, checkpointsKey),
    queryFn: (): Promise<ReviewDiff> =>
      client.review.diff.query(selection as Parameters<typeof client.review.diff.query>[0]),
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });
  const diff = query.data ?? null;
  const failure = query.error === null ? null : describeError(query.error);
  const loading = query.isFetching;

  if (detail === null) return null;
  const currentRunId = diff?.to?.runId ?? null;
  const totals = (diff?.files ?? []).reduce(
    (sum, f) => ({ add: sum.add + f.additions, del: sum.del + f.deletions }),
    { add: 0, del: 0 },
  );
  const markSeen = () => {
    if (!currentRunId) return;
    writeLastSeenRun(threadId, currentRunId);
    setLastSeen(currentRunId);
  };
  const unseen = currentRunId !== null && lastSeen !== currentRunId;

  return (
    <div className="page review" aria-busy={loading}>
      <div className="review-bar">
        <h2>Review</h2>
        <label className="review-scope">
          <span>Changes</span>
          <select
            value={scopeKey(scope)}
            onChange={(event) => setScope(parseScope(event.target.value))}
            aria-label="Which changes"
          >
            <option value="thread">Whole thread</option>
            <option value="since">Since I last looked</option>
            {runs.map((r) => (
              <option key={r.runId} value={`run:${r.runId}`}>
                {runHeaderLabel(runOf(r.runId), threadId, r.ordinal, numberOf, asideRunsOf)}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="review-toggle">
          <legend className="sr-only">Diff layout</legend>
          {(["unified", "split"] as const).map((type) => (
            <button
              key={type}
              type="button"
              aria-pressed={viewType === type}
              onClick={() => setViewType(type)}
            >
              {type === "unified" ? "Unified" : "Split"}
            </button>
          ))}
        </fieldset>
        <button
          type="button"
          onClick={markSeen}
          disabled={!unseen}
          title="The next 'since I last looked' starts from here"
        >
          {unseen ? "Mark as seen" : "All seen"}
        </button>
      </div>
      {scope.kind === "since" && !seenIsKnown && (
        <p className="muted">
          Nothing marked as seen yet in this browser: showing the whole thread.
        </p>
      )}
      <PullRequestPanel />
      {commentSent && (
        <p className="review-comment-sent" role="status">
          Sent your comment on {commentSent} to the agent.
        </p>
      )}
      <ActionError error={failure} prefix="Could not load the changes." />
      {reverts.done && (
        <p className="review-reverted" role="status">
          {reverts.done.undone
            ? `Put back ${targetLabel(reverts.done.target)} as it was before the revert.`
            : `Reverted ${targetLabel(reverts.done.target)} in the workspace (the diff below compares checkpoints).`}{" "}
          {!reverts.done.undone && (
            <button type="button" onClick={reverts.undo} disabled={reverts.action.pending}>
              Undo revert
            </button>
          )}
        </p>
      )}
      <ActionError error={reverts.action.failure} prefix="Revert failed." />
      {reverts.conflicted && (
        <p className="review-conflict">
          <button
            type="button"
            className="danger"
            onClick={() => reverts.revert(reverts.conflicted!, true)}
            disabled={reverts.action.pending}
          >
            Revert {reverts.conflicted.path} anyway
          </button>{" "}
          <span className="muted">your version is kept in a safety checkpoint first</span>
        </p>
      )}
      {diff && diff.to === null && (
        <p className="muted">No checkpoints yet: changes show here once a run has finished.</p>
      )}
      {diff && diff.to !== null && diff.files.length === 0 && (
        <p className="muted review-empty">
          {scope.kind === "since" ? "No changes since you last looked." : "No files changed."}
        </p>
      )}
      {diff && diff.files.length > 0 && (
        <>
          <p className="review-summary">
            {diff.files.length} {diff.files.length === 1 ? "file" : "files"} changed{" "}
            <span className="add">+{totals.add}</span> <span className="del">−{totals.del}</span>
            <span className="muted">
              {" "}
              · {diff.from ? after(diff.from) : "thread start"} →{" "}
              {diff.to ? after(diff.to) : "after run ?"}
            </span>
          </p>
          <FileList files={diff.files} />
          {diff.files.map((file, index) => (
            <details
              key={`${file.oldPath ?? ""}→${file.path}`}
              id={`review-file-${index}`}
              className="panel review-file"
              data-path={file.path}
              open
            >
              <summary>
                <code>{file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}</code>{" "}
                <span className={`badge review-status-${file.status}`}>{file.status}</span>{" "}
                <span className="add">+{file.additions}</span>{" "}
                <span className="del">−{file.deletions}</span>
              </summary>
              <div className="row review-file-actions">
                <button
                  type="button"
                  onClick={() => reverts.revert({ path: file.path })}
                  disabled={reverts.action.pending}
                  aria-label={`Revert file ${file.path}`}
                  title="Put this file back as it was before these changes"
                >
                  Revert file
                </button>
              </div>
              <FileDiff
                file={file}
                viewType={viewType}
                disabled={reverts.action.pending}
                onRevertHunk={(hunk) => reverts.revert({ path: file.path, hunk })}
                onCommentLine={(target) => {
                  setCommentSent(null);
                  setCommenting(target);
                }}
                comment={
                  commenting?.path === file.path
                    ? {
                        key: commenting.key,
                        node: (
                          <LineComment
                            threadId={threadId}
                            target={commenting}
                            onClose={() => setCommenting(null)}
                            onSent={() => {
                              setCommentSent(
                                commenting.line === null
                                  ? commenting.path
                                  : `${commenting.path}:${commenting.line}`,
                              );
                              setCommenting(null);
                            }}
                          />
                        ),
                      }
                    : null
                }
              />
            </details>
          ))}
        </>
      )}
    </div>
  );
}
