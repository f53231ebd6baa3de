"use client";
import type { ReactNode } from "react";

/**
 * B9 bring-back refusals, shared by the Parallel page and the composer: the files a refused merge
 * names, the message that hands the clash to the thread's agent, and the notice that shows them.
 */

/** The files a refused merge names (`data.issues` of the API's CONFLICT); null: not that. */
export function conflictFiles(error: unknown): string[] | null {
  const data = (error as { data?: { code?: unknown; issues?: unknown } } | null)?.data;
  if (data?.code !== "CONFLICT" || !Array.isArray(data.issues)) return null;
  return data.issues.flatMap((issue: { path?: unknown }) =>
    typeof issue?.path === "string" ? [issue.path] : [],
  );
}

/** The message asking this thread's agent to merge the fork's branch and resolve the clash. */
export function handToAgentText(title: string, branch: string, files: readonly string[]): string {
  return (
    `Bring back the work of "${title}" (branch ${branch}). Its changes clash ` +
    `with this workspace in: ${files.join(", ")}. Merge branch ${branch} here with ` +
    "git and resolve the conflicts, keeping what both sides meant."
  );
}

/** Nothing was applied: the clashing files, and what can be done instead (`children`). */
export function BringBackConflict({
  title,
  files,
  children,
}: {
  title: string;
  files: readonly string[];
  children?: ReactNode;
}) {
  return (
    <div className="error merge-conflict" role="alert">
      <p>
        Not brought back: {title} changed files this workspace changed too. Nothing was changed
        here. Resolve these, then try again:
      </p>
      <ul>
        {files.map((file) => (
          <li key={file}>
            <code>{file}</code>
          </li>
        ))}
      </ul>
      {children}
    </div>
  );
}
