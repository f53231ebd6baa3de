"use client";
import { useProviderModelLabel } from "../../lib/use-provider-models.ts";
import type { ForkSummary } from "../../lib/types.ts";

/**
 * B9: what a fork ran on — provider and model by its catalog name (the provider's default named
 * when the run left the pick to it) — and the reasoning effort of its latest run.
 */
export function ForkModel({ fork }: { fork: ForkSummary }) {
  const label = useProviderModelLabel(fork.provider, fork.model);
  if (fork.provider === null) return <span className="muted">no run yet</span>;
  return (
    <div className="fork-model">
      <span>{label}</span>
      <span className="muted">
        {fork.effort === null ? "default effort" : `${fork.effort} effort`}
      </span>
    </div>
  );
}
