"use client";
import type { RouterOutputs } from "@skein/contract";

export type RollbackPreview = RouterOutputs["thread"]["rollbackPreview"];
export type RollbackScope = RollbackPreview["scope"];

/** What a file becomes, in words: the preview's change is current content → restored. */
function becomes(file: RollbackPreview["files"][number], target: string): string {
  if (file.status === "added") return `comes back as it was ${target}`;
  if (file.status === "deleted") return `is deleted (the agent created it after ${target})`;
  if (file.status === "renamed") return `is renamed back from ${file.oldPath ?? "?"}`;
  return `goes back to its content ${target}`;
}

/**
 * B14: exactly what a rollback will do, shown before it is confirmed: the runs it rolls back, each
 * file the agent changed and what it becomes, and the files the person changed since (conflicts).
 */
export function RollbackPreviewPanel({
  preview,
  target,
  scope,
  onScope,
  scopes,
}: {
  preview: RollbackPreview | null;
  /** "after run 2", "before the forced rollback", …: where the files go back to. */
  target: string;
  scope: RollbackScope;
  onScope(next: RollbackScope): void;
  scopes: readonly RollbackScope[];
}) {
  return (
    <section className="rollback-preview" aria-label="Rollback preview">
      {scopes.length > 1 && (
        <label>
          Undo{" "}
          <select
            aria-label="What to roll back"
            value={scope}
            onChange={(event) => onScope(event.target.value as RollbackScope)}
          >
            <option value="both">the conversation and the code</option>
            <option value="code">the code only</option>
            <option value="conversation">the conversation only</option>
          </select>
        </label>
      )}
      {preview === null ? (
        <p className="muted">Working out what the rollback changes…</p>
      ) : (
        <>
          {preview.rolledBackRunOrdinals.length > 0 && (
            <p>
              {preview.rolledBackRunOrdinals.length === 1 ? "Run" : "Runs"}{" "}
              {preview.rolledBackRunOrdinals.join(", ")}{" "}
              {preview.rolledBackRunOrdinals.length === 1 ? "becomes" : "become"} rolled back (kept
              in the graph, still forkable).
            </p>
          )}
          {scope !== "conversation" &&
            (preview.files.length === 0 ? (
              <p className="muted">No file changes: the agent's files are already as they were.</p>
            ) : (
              <ul className="rollback-files">
                {preview.files.map((file) => (
                  <li key={file.path} data-path={file.path} data-conflict={file.conflict}>
                    <code>{file.path}</code> {becomes(file, target)}{" "}
                    <span className="add">+{file.additions}</span>{" "}
                    <span className="del">−{file.deletions}</span>
                    {file.conflict && (
                      <span className="badge status-error"> you changed it since</span>
                    )}
                  </li>
                ))}
              </ul>
            ))}
          {preview.conflicts.length > 0 && (
            <p className="error" role="alert">
              You changed {preview.conflicts.join(", ")} after the agent last wrote{" "}
              {preview.conflicts.length === 1 ? "it" : "them"}. Rolling back anyway overwrites your
              version, which is kept first in a safety checkpoint you can roll back to.
            </p>
          )}
          <p className="muted">Every other file, including the ones you made, stays as it is.</p>
        </>
      )}
    </section>
  );
}
