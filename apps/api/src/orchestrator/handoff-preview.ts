import {
  type ContextHandoff,
  type ContextTransfer,
  PreconditionFailedError,
  type ProviderKind,
  type ProviderThreadId,
  type ThreadState,
} from "@skein/domain";
import {
  buildHandoff,
  type HandoffBuild,
  type HandoffPlan,
  resolveStartContext,
  type TransferCapabilities,
  toRanges,
} from "@skein/transfer";
import { startContextHistory, type TransferInputs } from "./start-context.ts";

/**
 * Builds the handoff a plan asks for. prepareStart and the inspector's preview both come here,
 * so a preview is byte-for-byte what the consuming run would have built itself.
 */
export function buildPlannedHandoff(
  inputs: TransferInputs,
  transfer: ContextTransfer,
  plan: HandoffPlan,
  targetProvider: ProviderKind,
  toProviderThreadId: ProviderThreadId | null,
  newMessage: string | null,
): HandoffBuild {
  const checkpoint = plan.checkpointId
    ? inputs.checkpoints.find((c) => c.id === plan.checkpointId)
    : null;
  return buildHandoff({
    ...plan,
    transfer,
    runs: inputs.runs,
    turnItems: inputs.turnItems,
    targetProvider,
    toProviderThreadId,
    newMessage,
    checkpoint: checkpoint ?? null,
  });
}

/**
 * The handoff plan the target thread's next run would follow for `transfer` on `provider`,
 * assuming no native fork (a preview only exists to be read as text). Refuses, as the run
 * would, when the transfer cannot be resolved on that provider or carries nothing over.
 */
export function planPreview(
  state: ThreadState,
  inputs: TransferInputs,
  transfer: ContextTransfer,
  provider: ProviderKind,
  capabilities: TransferCapabilities,
): HandoffPlan {
  const res = resolveStartContext({
    threadId: transfer.targetThreadId,
    provider,
    message: "",
    capabilities: { ...capabilities, nativeFork: false },
    ...startContextHistory(state, inputs),
  });
  switch (res.kind) {
    case "unsupported":
      throw new PreconditionFailedError(res.detail);
    case "none":
    case "native":
      throw new PreconditionFailedError(
        `transfer ${transfer.id} carries nothing over to ${provider}: no handoff is needed`,
      );
    case "portable":
    case "delta":
      if (res.transfer.kind !== "existing" || res.transfer.transferId !== transfer.id) {
        throw new PreconditionFailedError(
          `the next run of ${transfer.targetThreadId} would not resolve transfer ${transfer.id}`,
        );
      }
      return res.handoff;
  }
}

function coverageKey(coverage: ReadonlyArray<{ threadId: string; runs: readonly Range[] }>) {
  return coverage.map((c) => `${c.threadId}:${c.runs.map((r) => `${r.from}-${r.to}`)}`).join(";");
}
type Range = { readonly from: number; readonly to: number };

/**
 * Why a generated preview cannot stand in for what `plan` builds for a run on `provider`, or
 * null when it can be sent as-is (same provider, strategy, coverage and checkpoint).
 */
export function previewMismatch(
  preview: ContextHandoff,
  plan: HandoffPlan,
  provider: ProviderKind,
): string | null {
  const builtFor = preview.payload.targetProvider;
  if (builtFor !== provider)
    return `previewed for ${builtFor ?? "no provider"}, run uses ${provider}`;
  if (preview.kind !== plan.kind || preview.strategy !== plan.strategy) {
    return `previewed as ${preview.strategy}, run needs ${plan.strategy}`;
  }
  const planned = plan.selection
    .filter((s) => s.ordinals.length > 0)
    .map((s) => ({ threadId: s.threadId, runs: toRanges(s.ordinals) }));
  if (coverageKey(planned) !== coverageKey(preview.payload.coverage)) {
    return "the runs to carry over changed since the preview";
  }
  // Only a checkpoint summary renders its checkpoint; other strategies merely carry the id.
  const checkpointId = plan.strategy === "checkpoint_summary" ? plan.checkpointId : null;
  if (checkpointId !== (preview.payload.checkpoint?.checkpointId ?? null)) {
    return "the checkpoint changed since the preview";
  }
  return null;
}
