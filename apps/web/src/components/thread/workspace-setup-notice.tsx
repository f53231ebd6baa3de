"use client";
import type { ThreadShell } from "../../lib/types.ts";

/**
 * Issue 26: how the thread's own worktree was set up (files copied in, the project's setup
 * script), shown while the script runs and after: a failure says so in words, and the thread
 * stays usable.
 */
export function WorkspaceSetupNotice({ thread }: { thread: ThreadShell }) {
  const setup = thread.workspaceSetup;
  if (!setup) return null;
  // A worktree that needed nothing (no script, nothing copied) has nothing to tell the person.
  const uneventful = !setup.script && setup.copied.length === 0 && !setup.output;
  if (setup.status === "succeeded" && uneventful) return null;
  const copied = setup.copied.length > 0 ? `Copied ${setup.copied.join(", ")}. ` : "";
  const output = setup.output ? (
    <details className="workspace-setup-output" open={setup.status === "failed"}>
      <summary>Setup output</summary>
      <pre>{setup.output}</pre>
    </details>
  ) : null;
  switch (setup.status) {
    case "running":
      return (
        <div className="hint workspace-setup" role="status" data-setup="running">
          {copied}
          Setting up the worktree: running <code>{setup.script}</code>… Messages wait for it.
          {output}
        </div>
      );
    case "failed":
      return (
        <div className="hint workspace-setup error" role="alert" data-setup="failed">
          {copied}
          {setup.error}
          {output}
        </div>
      );
    case "succeeded":
      return (
        <div className="muted workspace-setup" data-setup="succeeded">
          Worktree ready. {copied}
          {setup.script ? (
            <>
              Setup <code>{setup.script}</code> ran.
            </>
          ) : null}
          {output}
        </div>
      );
  }
}
