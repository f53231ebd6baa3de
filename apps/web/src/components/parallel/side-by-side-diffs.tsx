"use client";
import { useMemo, useState } from "react";
import { useCompareDiff } from "../../lib/use-compare-diff.ts";
import type { ForkSummary } from "../../lib/types.ts";
import { ActionError } from "../common/action-error.tsx";
import { FileDiff } from "../review/file-diff.tsx";
import "react-diff-view/style/index.css";
import "../review/review.css";

const ALL = "";

/**
 * B9: the candidates' diffs in columns, one per fork — of one file, to see how each solved the
 * same part, or of all their files. Read on request (opening it), drawn with the Review's diff.
 */
export function SideBySideDiffs({ forks }: { forks: readonly ForkSummary[] }) {
  const [open, setOpen] = useState(false);
  const [path, setPath] = useState(ALL);
  const paths = useMemo(
    () => [...new Set(forks.flatMap((fork) => (fork.files ?? []).map((f) => f.path)))].sort(),
    [forks],
  );
  // The diffs are read again when a fork's changed files (or their counts) move.
  const version = forks
    .map((fork) => (fork.files ?? []).map((f) => `${f.path}:${f.additions}:${f.deletions}`))
    .join("|");
  const forkIds = forks.map((fork) => fork.threadId);
  const { diff, failure, loading } = useCompareDiff(
    forkIds,
    path === ALL ? null : path,
    open,
    version,
  );
  const filesOf = new Map(diff?.forks.map((fork) => [fork.threadId, fork.files]) ?? []);

  return (
    <section className="compare-diffs" aria-labelledby="compare-diffs-heading">
      <div className="compare-diffs-head">
        <h3 id="compare-diffs-heading">Diffs side by side</h3>
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? "Hide diffs" : "Show diffs"}
        </button>
        {open && (
          <label className="compare-diffs-path">
            <span>File</span>
            <select
              aria-label="File to compare"
              value={path}
              onChange={(event) => setPath(event.target.value)}
            >
              <option value={ALL}>All files</option>
              {paths.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
        )}
        {open && loading && <span className="muted">Reading diffs…</span>}
      </div>
      {open && <ActionError error={failure} prefix="Cannot show the diffs." />}
      {open && diff && (
        <div
          className="compare-columns"
          style={{ gridTemplateColumns: `repeat(${forks.length}, minmax(320px, 1fr))` }}
        >
          {forks.map((fork) => (
            <ForkColumn
              key={fork.threadId}
              fork={fork}
              files={filesOf.get(fork.threadId)}
              path={path === ALL ? null : path}
            />
          ))}
        </div>
      )}
    </section>
  );
}

type ColumnFiles = NonNullable<ReturnType<typeof useCompareDiff>["diff"]>["forks"][number]["files"];

function ForkColumn({
  fork,
  files,
  path,
}: {
  fork: ForkSummary;
  files: ColumnFiles | undefined;
  path: string | null;
}) {
  return (
    <section
      className="compare-column"
      data-fork-id={fork.threadId}
      aria-label={`Diff of ${fork.title}`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
      tabIndex={0}
    >
      <h4 className="compare-column-title">{fork.title}</h4>
      {files === undefined ? (
        <p className="muted">Reading…</p>
      ) : files === null ? (
        <p className="muted">No worktree: its work is in its checkpoints only.</p>
      ) : files.length === 0 ? (
        <p className="muted">{path === null ? "No changes." : `Did not change ${path}.`}</p>
      ) : (
        files.map((file) => (
          <div key={file.path} className="compare-file" data-path={file.path}>
            <div className="compare-file-name">
              <code>{file.path}</code> <span className="diff-add">+{file.additions}</span>{" "}
              <span className="diff-del">−{file.deletions}</span>
            </div>
            <FileDiff file={file} viewType="unified" />
          </div>
        ))
      )}
    </section>
  );
}
