"use client";
import { GitFork } from "lucide-react";
import { memo } from "react";
import { shortTime, words } from "../../lib/format.ts";
import { useProviderModelLabel } from "../../lib/use-provider-models.ts";
import type { ProviderKind, Run } from "../../lib/types.ts";
import { runHeaderLabel } from "../../lib/run-label.ts";
import { usageDetail, usageLabel } from "../../lib/usage-label.ts";
import type { Lineage } from "../../lib/use-run-number.ts";
import { CopyId } from "../common/copy-id.tsx";
import { RunProgress } from "./run-progress.tsx";

/**
 * Where a run begins in the item stream: its number (E3: a compaction is named, not numbered), provider and model (so a thread that mixes
 * providers shows it run by run), its status, its tokens and cost once reported, "fork from here" once it has completed, and "retry"
 * on the latest run when it ended interrupted or failed.
 */
export const RunHeader = memo(function RunHeader({
  run,
  numberOf,
  asideRunsOf,
  threadId,
  ordinal,
  provider,
  inherited,
  onFork,
  forking,
  onRetry,
  retrying,
  limitNote,
}: {
  run: Run | undefined;
  /**
   * The open thread's `useLineage().numberOf`, passed in rather than read here: the thread context
   * changes with every streamed delta, and each header would render again with it.
   */
  numberOf: Lineage["numberOf"];
  /** The open thread's `useLineage().asideRunsOf`: which inherited runs take no number. */
  asideRunsOf?: Lineage["asideRunsOf"];
  /** The thread the run belongs to (an inherited run belongs to the source). */
  threadId: string;
  ordinal: number | null;
  provider: ProviderKind | null;
  inherited: boolean;
  onFork?: (run: Run) => void;
  forking?: boolean;
  /** Set only on the run "Retry" is offered on (the latest, interrupted or failed). */
  onRetry?: (run: Run) => void;
  retrying?: boolean;
  /** Issue 32: set only on the run a standing usage limit failed (its reset, its resume). */
  limitNote?: string;
}) {
  const model = useProviderModelLabel(run?.provider ?? provider, run?.model ?? null);
  const label = runHeaderLabel(run, threadId, run?.ordinal ?? ordinal, numberOf, asideRunsOf);
  return (
    <div
      className="run-header"
      data-run-id={run?.id}
      data-provider={run?.provider ?? provider ?? undefined}
    >
      <span className="run-label">{label}</span>
      {run && <CopyId id={run.id} what="run" />}
      <span className={`provider-chip provider-${run?.provider ?? provider ?? "none"}`}>
        {model}
      </span>
      {run && <span className={`run-status status-${run.status}`}>{words(run.status)}</span>}
      {run && <RunProgress run={run} />}
      {inherited && <span className="badge">inherited</span>}
      {run?.imported && (
        <span className="badge" title="Read from the adopted session's own history">
          imported
        </span>
      )}
      {run?.startedAt && <span className="muted">{shortTime(run.startedAt)}</span>}
      {run?.usage && (
        <span className="muted run-usage" title={usageDetail(run.usage)}>
          {usageLabel(run.usage)}
        </span>
      )}
      {run?.progress && (
        <span className="warn run-progress" role="status">
          {run.progress.text}
        </span>
      )}
      {run && limitNote && (
        <span className="warn run-limit" role="status">
          {limitNote}
        </span>
      )}
      {run?.error && <span className="error inline-error">{run.error}</span>}
      {run && onFork && run.status === "completed" && (
        <button
          type="button"
          className="small"
          disabled={forking}
          onClick={() => onFork(run)}
          aria-label={`Fork from ${label}`}
        >
          <GitFork size={13} aria-hidden /> Fork
        </button>
      )}
      {run && onRetry && (
        <button
          type="button"
          className="small"
          disabled={retrying}
          onClick={() => onRetry(run)}
          aria-label={`Retry ${label}`}
          title="Start this run again from the last stable point"
        >
          Retry
        </button>
      )}
    </div>
  );
});
