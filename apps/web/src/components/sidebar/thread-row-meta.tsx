"use client";
import { shortTime } from "../../lib/format.ts";
import { relativeTime } from "../../lib/relative-time.ts";
import { rowProvider, rowWorkspace } from "../../lib/row-meta.ts";
import type { ThreadShell } from "../../lib/types.ts";
import { useMinute } from "../../lib/use-minute.ts";
import { DiffStat } from "./diff-stat.tsx";

/**
 * The row's second line: provider, the thread's net change, branch and how long ago it moved. Its own
 * component so the shared minute tick re-renders this line only, not the row around it.
 */
export function ThreadRowMeta({ shell }: { shell: ThreadShell }) {
  const now = useMinute();
  const provider = rowProvider(shell);
  const workspace = rowWorkspace(shell);
  return (
    <span className="thread-row-meta">
      <span
        className="provider-mark"
        data-provider={shell.lastRunProvider ?? shell.defaultProvider}
        title={provider.title}
      >
        {provider.label}
      </span>
      {shell.diffStat !== undefined && <DiffStat stat={shell.diffStat} />}
      {workspace !== null && (
        <span className="row-branch" title={shell.worktreePath ?? workspace}>
          {workspace}
        </span>
      )}
      <time
        className="row-time"
        dateTime={shell.lastActivityAt}
        title={`Last activity ${shortTime(shell.lastActivityAt)}`}
      >
        {relativeTime(shell.lastActivityAt, now)}
      </time>
    </span>
  );
}
