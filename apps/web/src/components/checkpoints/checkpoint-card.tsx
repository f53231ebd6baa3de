"use client";
import Link from "next/link";
import { useEffect, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { providerModel, shortTime, words } from "../../lib/format.ts";
import type { Checkpoint, Run, TurnItemOf } from "../../lib/types.ts";
import { type ApiFailure, describeError } from "../../lib/errors.ts";
import { useAction } from "../../lib/use-action.ts";
import { checkpointRunPhrase } from "../../lib/checkpoint-label.ts";
import { useLineage } from "../../lib/use-run-number.ts";
import { DiffView } from "../common/diff-view.tsx";
import { ActionError } from "../common/action-error.tsx";
import {
  type RollbackPreview,
  RollbackPreviewPanel,
  type RollbackScope,
} from "./rollback-preview.tsx";

/** A safety checkpoint (B14): the workspace kept before a forced rollback or a revert. */
export const isSafetyCheckpoint = (checkpoint: Checkpoint) =>
  checkpoint.appRunOrdinal === null && checkpoint.ref.includes("/safety-");

export function CheckpointCard({
  threadId,
  checkpoint,
  run,
  changes,
  latest,
  busy,
  onRolledBack,
}: {
  threadId: string;
  checkpoint: Checkpoint;
  run: Run | undefined;
  changes: readonly TurnItemOf<"file_change">[];
  latest: boolean;
  busy: boolean;
  onRolledBack(): void;
}) {
  const client = useApi();
  const action = useAction();
  const [confirming, setConfirming] = useState(false);
  const safety = isSafetyCheckpoint(checkpoint);
  const { numberOf, asideRunsOf } = useLineage();
  // E3: the run's number as its header shows it (a compaction before it does not push it on).
  const after = checkpointRunPhrase(run, threadId, checkpoint.appRunOrdinal, numberOf, asideRunsOf);
  const label = safety
    ? `safety checkpoint of ${shortTime(checkpoint.capturedAt)}`
    : `checkpoint after ${after}`;
  const [scope, setScope] = useState<RollbackScope>(safety ? "code" : "both");
  const [preview, setPreview] = useState<RollbackPreview | null>(null);
  const [safetyMade, setSafetyMade] = useState(false);
  const [previewFailure, setPreviewFailure] = useState<ApiFailure | null>(null);

  // B14: the preview is read when the person asks to roll back, and again for another scope.
  useEffect(() => {
    if (!confirming) return;
    let current = true;
    setPreview(null);
    setPreviewFailure(null);
    client.thread.rollbackPreview
      .query({ threadId: threadId as never, checkpointId: checkpoint.id, scope })
      .then((next) => current && setPreview(next))
      .catch((error: unknown) => current && setPreviewFailure(describeError(error)));
    return () => {
      current = false;
    };
  }, [client, threadId, checkpoint.id, scope, confirming]);

  const conflicts = preview?.conflicts.length ?? 0;
  const rollback = () =>
    void action.run(async () => {
      const answer = await client.thread.rollback.mutate({
        threadId,
        checkpointId: checkpoint.id,
        scope,
        ...(conflicts > 0 ? { force: true } : {}),
      });
      setSafetyMade(answer.safetyCheckpointId !== null);
      setConfirming(false);
      onRolledBack();
    });

  return (
    <section
      id={checkpoint.id}
      className="panel checkpoint-card"
      aria-label={label}
      data-checkpoint-id={checkpoint.id}
    >
      <div className="panel-head">
        <h3>
          {safety ? "Safety checkpoint" : `After ${after}`}{" "}
          <span className={`badge status-${checkpoint.status}`}>{checkpoint.status}</span>
          {latest && <span className="badge">current</span>}
          {run?.status === "rolled_back" && <span className="badge">run rolled back</span>}
        </h3>
        <span className="muted">
          {run ? `${providerModel(run.provider, run.model)} · ${words(run.status)} · ` : ""}
          {shortTime(checkpoint.capturedAt)}
        </span>
      </div>
      {checkpoint.files.length === 0 ? (
        <p className="muted">No files changed in this run.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Change</th>
              <th scope="col">+</th>
              <th scope="col">−</th>
            </tr>
          </thead>
          <tbody>
            {checkpoint.files.map((file) => (
              <tr key={file.path}>
                <td>
                  {checkpoint.runId && checkpoint.status === "ready" ? (
                    <Link
                      href={`/threads/${threadId}/review?run=${checkpoint.runId}`}
                      title="Open this run's diff"
                    >
                      <code>{file.path}</code>
                    </Link>
                  ) : (
                    <code>{file.path}</code>
                  )}
                </td>
                <td>{file.status}</td>
                <td className="add">{file.additions}</td>
                <td className="del">{file.deletions}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {changes.length > 0 && (
        <details>
          <summary>Diff of {after}</summary>
          {changes.map((change) => (
            <div key={change.id}>
              <h4>
                <code>{change.fileName}</code>
              </h4>
              <DiffView
                diff={change.diffStr}
                oldText={change.oldStr}
                newText={change.newStr}
                label={`Diff of ${change.fileName}`}
              />
            </div>
          ))}
        </details>
      )}
      <div className="row">
        {!confirming ? (
          <button
            type="button"
            disabled={latest || busy || action.pending}
            onClick={() => setConfirming(true)}
            aria-label={`Roll back to ${label}`}
            title={latest ? "The workspace is at this checkpoint" : undefined}
          >
            Roll back to here…
          </button>
        ) : (
          <fieldset className="confirm">
            <legend className="sr-only">Confirm rollback</legend>
            <RollbackPreviewPanel
              preview={preview}
              target={safety ? "before the change this checkpoint kept" : `after ${after}`}
              scope={scope}
              onScope={setScope}
              scopes={safety ? ["code"] : ["both", "code", "conversation"]}
            />
            <button
              type="button"
              className="danger"
              onClick={rollback}
              disabled={action.pending || preview === null}
            >
              {action.pending
                ? "Rolling back…"
                : conflicts > 0
                  ? "Roll back anyway (keep my version in a safety checkpoint)"
                  : "Confirm rollback"}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </fieldset>
        )}
      </div>
      {safetyMade && (
        <p className="notice" role="status">
          Rolled back. Your overwritten files are kept in a new safety checkpoint above: roll back
          to it to put them back.
        </p>
      )}
      <ActionError error={previewFailure} prefix="Cannot preview the rollback." />
      <ActionError error={action.failure} prefix="Rollback failed." />
    </section>
  );
}
