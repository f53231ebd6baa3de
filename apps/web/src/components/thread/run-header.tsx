"use client";
import { providerModel, shortTime, words } from "../../lib/format.ts";
import type { ProviderKind, Run } from "../../lib/types.ts";

/**
 * Where a run begins in the item stream: its ordinal, provider and model (so a thread that mixes
 * providers shows it run by run), its status, and "fork from here" once it has completed.
 */
export function RunHeader({
  run,
  ordinal,
  provider,
  inherited,
  onFork,
  forking,
}: {
  run: Run | undefined;
  ordinal: number | null;
  provider: ProviderKind | null;
  inherited: boolean;
  onFork?: (run: Run) => void;
  forking?: boolean;
}) {
  const label = `Run ${run?.ordinal ?? ordinal ?? "?"}`;
  return (
    <div
      className="run-header"
      data-run-id={run?.id}
      data-provider={run?.provider ?? provider ?? undefined}
    >
      <span className="run-label">{label}</span>
      <span className={`provider-chip provider-${run?.provider ?? provider ?? "none"}`}>
        {run ? providerModel(run.provider, run.model) : providerModel(provider, null)}
      </span>
      {run && <span className={`run-status status-${run.status}`}>{words(run.status)}</span>}
      {inherited && <span className="badge">inherited</span>}
      {run?.startedAt && <span className="muted">{shortTime(run.startedAt)}</span>}
      {run?.error && <span className="error inline-error">{run.error}</span>}
      {run && onFork && run.status === "completed" && (
        <button
          type="button"
          className="small"
          disabled={forking}
          onClick={() => onFork(run)}
          aria-label={`Fork from ${label}`}
        >
          Fork from here
        </button>
      )}
    </div>
  );
}
