"use client";
import Link from "next/link";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { formatElapsed } from "../../lib/elapsed.ts";
import { type ApiFailure, describeError } from "../../lib/errors.ts";
import { providerModel } from "../../lib/format.ts";
import type { ForkComparisonState } from "../../lib/use-fork-comparison.ts";
import type { ForkSummary } from "../../lib/types.ts";
import { usageLabel } from "../../lib/usage-label.ts";
import { ActionError } from "../common/action-error.tsx";
import { ScrollDiv } from "../common/scroll-box.tsx";
import { BringBackConflict, conflictFiles, handToAgentText } from "./bring-back-conflict.tsx";

type Outcome =
  | { kind: "brought"; forkId: string; files: number }
  | { kind: "handed"; forkId: string }
  | { kind: "conflict"; forkId: string; files: string[] }
  | { kind: "failed"; forkId: string; failure: ApiFailure };

/** A refused bring-back: a clash named file by file, or any other failure in words. */
function failureOf(forkId: string, error: unknown): Outcome {
  const files = conflictFiles(error);
  return files
    ? { kind: "conflict", forkId, files }
    : { kind: "failed", forkId, failure: describeError(error) };
}

function FilesCell({ fork }: { fork: ForkSummary }) {
  if (fork.files === null) return <span className="muted">no worktree</span>;
  if (fork.files.length === 0) return <span className="muted">no changes</span>;
  return (
    <ul className="fork-files">
      {fork.files.map((file) => (
        <li key={file.path} data-path={file.path}>
          <code>{file.path}</code> <span className="diff-add">+{file.additions}</span>{" "}
          <span className="diff-del">−{file.deletions}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * B9: the forks of a fan-out side by side — status, time, tokens, files changed — with the files
 * two live forks both touch, and "Bring back" that applies a fork's files to this workspace and
 * sends its conversation in one step (refused untouched, file by file, when they clash).
 */
export function ForkComparisonView({
  threadId,
  state,
}: {
  threadId: string;
  state: ForkComparisonState;
}) {
  const client = useApi();
  const { forks, comparison } = state;
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const titles = new Map<string, string>(forks.map((fork) => [fork.id, fork.title]));
  const conflicted =
    outcome?.kind === "conflict"
      ? comparison?.forks.find((fork) => fork.threadId === outcome.forkId)
      : undefined;

  const bringBack = async (fork: ForkSummary) => {
    setBusy(fork.threadId);
    setOutcome(null);
    try {
      const answer = await client.thread.sendMessage.mutate({
        threadId: threadId as never,
        text: `I brought back the work of "${fork.title}". Check it and carry on.`,
        bringBackFrom: fork.threadId,
        code: "squash",
      });
      const files = "code" in answer && answer.code ? answer.code.files.length : 0;
      setOutcome({ kind: "brought", forkId: fork.threadId, files });
      state.refresh();
    } catch (error) {
      setOutcome(failureOf(fork.threadId, error));
    } finally {
      setBusy(null);
    }
  };

  // The clash goes to this thread's agent: the fork's conversation comes back, its files stay on
  // its branch, and the agent is asked to merge that branch here and resolve the conflicts.
  const handToAgent = async (fork: ForkSummary, files: string[]) => {
    setBusy(fork.threadId);
    try {
      await client.thread.sendMessage.mutate({
        threadId: threadId as never,
        text: handToAgentText(fork.title, fork.branch ?? "", files),
        bringBackFrom: fork.threadId,
        code: "none",
      });
      setOutcome({ kind: "handed", forkId: fork.threadId });
    } catch (error) {
      setOutcome(failureOf(fork.threadId, error));
    } finally {
      setBusy(null);
    }
  };

  if (forks.length === 0) {
    return <p className="muted">No isolated forks of this thread yet: fan out a task above.</p>;
  }
  return (
    <section className="fork-comparison" aria-labelledby="compare-heading">
      <div className="fork-comparison-head">
        <h2 id="compare-heading">Compare forks</h2>
        <button type="button" onClick={state.refresh}>
          Refresh
        </button>
      </div>
      <ActionError error={state.error} prefix="Cannot compare the forks." />
      {comparison && comparison.overlaps.length > 0 && (
        <div className="overlap-warning" role="status">
          <strong>Forks touch the same files.</strong> Bringing back more than one may clash:
          <ul>
            {comparison.overlaps.map((overlap) => (
              <li key={overlap.path}>
                <code>{overlap.path}</code>:{" "}
                {overlap.threadIds.map((id) => titles.get(id) ?? id).join(", ")}
              </li>
            ))}
          </ul>
        </div>
      )}
      {outcome?.kind === "conflict" && (
        <BringBackConflict title={titles.get(outcome.forkId) ?? "the fork"} files={outcome.files}>
          {conflicted?.branch && (
            <button
              type="button"
              disabled={busy !== null}
              onClick={() => void handToAgent(conflicted, outcome.files)}
            >
              Hand to the agent to merge
            </button>
          )}
        </BringBackConflict>
      )}
      {outcome?.kind === "handed" && (
        <p className="notice" role="status">
          Asked this thread's agent to merge {titles.get(outcome.forkId) ?? "the fork"}; follow it
          in the conversation.
        </p>
      )}
      {outcome?.kind === "brought" && (
        <p className="notice" role="status">
          Brought back {titles.get(outcome.forkId) ?? "the fork"}:{" "}
          {outcome.files > 0 &&
            `${outcome.files} file${outcome.files === 1 ? "" : "s"} applied and `}
          its conversation sent. Rolling back to the checkpoint before it undoes both.
        </p>
      )}
      {outcome?.kind === "failed" && (
        <ActionError error={outcome.failure} prefix="Bring back failed." />
      )}
      <ScrollDiv className="table-scroll">
        <table className="fork-table">
          <thead>
            <tr>
              <th scope="col">Fork</th>
              <th scope="col">Provider</th>
              <th scope="col">Status</th>
              <th scope="col">Time</th>
              <th scope="col">Tokens</th>
              <th scope="col">Files changed</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(comparison?.forks ?? []).map((fork) => (
              <tr key={fork.threadId} data-fork-id={fork.threadId}>
                <th scope="row">
                  <Link href={`/threads/${fork.threadId}`}>{fork.title}</Link>
                  {fork.branch && <div className="muted">{fork.branch}</div>}
                </th>
                <td>{providerModel(fork.provider, fork.model)}</td>
                <td className="fork-status">{fork.status}</td>
                <td>{fork.durationMs === null ? "—" : formatElapsed(fork.durationMs)}</td>
                <td>{usageLabel(fork.usage) ?? "—"}</td>
                <td>
                  <FilesCell fork={fork} />
                </td>
                <td>
                  <button
                    type="button"
                    aria-label={`Bring back ${fork.title}`}
                    disabled={busy !== null || fork.status !== "completed"}
                    onClick={() => void bringBack(fork)}
                  >
                    {busy === fork.threadId ? "Bringing back…" : "Bring back"}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollDiv>
    </section>
  );
}
