"use client";
import Link from "next/link";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { providerModel, shortTime, words } from "../../lib/format.ts";
import type { Checkpoint, Run, TurnItemOf } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { DiffView } from "../common/diff-view.tsx";
import { ActionError } from "../common/action-error.tsx";

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
  const label = `checkpoint after run ${checkpoint.appRunOrdinal ?? "?"}`;

  const rollback = () =>
    void action.run(async () => {
      await client.thread.rollback.mutate({ threadId, checkpointId: checkpoint.id });
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
          After run {checkpoint.appRunOrdinal ?? "?"}{" "}
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
          <summary>Diff of run {checkpoint.appRunOrdinal ?? "?"}</summary>
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
            <span>Restore the workspace to this checkpoint and mark later runs rolled back?</span>
            <button type="button" className="danger" onClick={rollback} disabled={action.pending}>
              {action.pending ? "Rolling back…" : "Confirm rollback"}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </fieldset>
        )}
      </div>
      <ActionError error={action.failure} prefix="Rollback failed." />
    </section>
  );
}
