"use client";
import { PROVIDER_LABEL } from "../../lib/format.ts";
import { modelLabel } from "../../lib/model-label.ts";
import { useProviderModels } from "../../lib/use-provider-models.ts";
import type { ForkSummary } from "../../lib/types.ts";

/**
 * B9: what a fork ran on — provider, the model by its catalog name (the provider's default
 * named when the run left the pick to it) and the reasoning effort of its latest run.
 */
export function ForkModel({ fork }: { fork: ForkSummary }) {
  const catalog = useProviderModels(fork.provider ?? "");
  if (fork.provider === null) return <span className="muted">no run yet</span>;
  return (
    <div className="fork-model">
      <span>{PROVIDER_LABEL[fork.provider]}</span>
      <span>{modelLabel(catalog, fork.model)}</span>
      <span className="muted">
        {fork.effort === null ? "default effort" : `${fork.effort} effort`}
      </span>
    </div>
  );
}
