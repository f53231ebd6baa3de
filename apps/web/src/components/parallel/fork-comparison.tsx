"use client";
import Link from "next/link";
import { useRef } from "react";
import { formatElapsed } from "../../lib/elapsed.ts";
import type { ForkComparisonState } from "../../lib/use-fork-comparison.ts";
import { useShells } from "../../lib/shells-store.tsx";
import type { ForkSummary } from "../../lib/types.ts";
import { usageLabel } from "../../lib/usage-label.ts";
import { ActionError } from "../common/action-error.tsx";
import { ScrollDiv } from "../common/scroll-box.tsx";
import { CheckCell, CheckCommandForm } from "./fork-checks.tsx";
import { ForkModel } from "./fork-model.tsx";
import { ForkOutcome } from "./fork-outcome.tsx";
import { SideBySideDiffs } from "./side-by-side-diffs.tsx";
import { type ForkActions, useForkActions } from "./use-fork-actions.ts";
import { type ForkChecks, useForkChecks } from "./use-fork-checks.ts";
import "./compare.css";

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
 * B9: the forks of a fan-out side by side — model and effort, status, time, tokens, files
 * changed, the check command's result — with the files two live forks both touch, their diffs in
 * columns, "Bring back" (a fork's files and conversation, refused untouched on a clash) and
 * "Pick as winner" (that, and the other forks archived, in one step).
 */
export function ForkComparisonView({
  threadId,
  state,
}: {
  threadId: string;
  state: ForkComparisonState;
}) {
  const { shells } = useShells();
  const { forks, comparison } = state;
  const actions = useForkActions(threadId, state.refresh);
  const checks = useForkChecks(shells.get(threadId)?.projectId ?? null);
  // Titles outlive the rows: a pick's notice names the forks it just archived.
  const titles = useRef(new Map<string, string>()).current;
  for (const fork of forks) titles.set(fork.id, fork.title);
  const compared = comparison?.forks ?? [];

  if (forks.length === 0 && actions.outcome === null) {
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
      <ForkOutcome actions={actions} titles={titles} forks={compared} />
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
      {compared.length > 0 && (
        <CheckCommandForm
          projectId={shells.get(threadId)?.projectId ?? null}
          forkIds={compared.map((fork) => fork.threadId)}
          checks={checks}
        />
      )}
      <ScrollDiv className="table-scroll">
        <table className="fork-table">
          <thead>
            <tr>
              <th scope="col">Fork</th>
              <th scope="col">Model</th>
              <th scope="col">Status</th>
              <th scope="col">Time</th>
              <th scope="col">Tokens</th>
              <th scope="col">Files changed</th>
              <th scope="col">Checks</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {compared.map((fork) => (
              <ForkRow
                key={fork.threadId}
                fork={fork}
                others={compared.filter((other) => other.threadId !== fork.threadId)}
                actions={actions}
                checks={checks}
              />
            ))}
          </tbody>
        </table>
      </ScrollDiv>
      {compared.length > 0 && <SideBySideDiffs forks={compared} />}
    </section>
  );
}

function ForkRow({
  fork,
  others,
  actions,
  checks,
}: {
  fork: ForkSummary;
  others: readonly ForkSummary[];
  actions: ForkActions;
  checks: ForkChecks;
}) {
  const idle = actions.busy === null && !checks.running;
  const done = fork.status === "completed";
  return (
    <tr data-fork-id={fork.threadId}>
      <th scope="row">
        <Link href={`/threads/${fork.threadId}`}>{fork.title}</Link>
        {fork.branch && <div className="muted">{fork.branch}</div>}
      </th>
      <td>
        <ForkModel fork={fork} />
      </td>
      <td className="fork-status">{fork.status}</td>
      <td>{fork.durationMs === null ? "—" : formatElapsed(fork.durationMs)}</td>
      <td>{usageLabel(fork.usage) ?? "—"}</td>
      <td>
        <FilesCell fork={fork} />
      </td>
      <td className="fork-check-cell">
        <CheckCell check={checks.results.get(fork.threadId)} />
      </td>
      <td className="fork-actions">
        <button
          type="button"
          aria-label={`Bring back ${fork.title}`}
          disabled={!idle || !done}
          onClick={() => void actions.bringBack(fork)}
        >
          {actions.busy === fork.threadId ? "Bringing back…" : "Bring back"}
        </button>
        <button
          type="button"
          className="primary"
          aria-label={`Pick as winner: ${fork.title}`}
          title={
            others.length === 0
              ? "Bring it back"
              : `Bring it back and archive the ${others.length} other fork${others.length === 1 ? "" : "s"}`
          }
          disabled={!idle || !done}
          onClick={() => void actions.pickWinner(fork, others)}
        >
          Pick as winner
        </button>
      </td>
    </tr>
  );
}
