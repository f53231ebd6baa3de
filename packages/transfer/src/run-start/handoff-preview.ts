import {
  asId,
  type ContextHandoff,
  type ContextTransfer,
  type ContextTransferId,
  currentHandoffOf,
  PreconditionFailedError,
  type ProviderKind,
  type ThreadState,
} from "@skein/domain";
import { buildHandoff } from "../build-handoff.ts";
import type { HandoffBuild, HandoffTransfer } from "../handoff-types.ts";
import type { TransferCapabilities } from "../inputs.ts";
import { toRanges } from "../ordinal-ranges.ts";
import type { HandoffPlan } from "../resolution-types.ts";
import { resolveStartContext } from "../resolve-start-context.ts";
import { netDiffFor } from "./code-state.ts";
import { startContextHistory, type TransferInputs } from "./start-inputs.ts";

/**
 * Builds the handoff a plan asks for. A run start and the inspector's preview both come here,
 * so a preview is byte-for-byte what the consuming run would have built itself.
 */
export function buildPlannedHandoff(
  inputs: Pick<TransferInputs, "runs" | "turnItems" | "checkpoints"> &
    Partial<Pick<TransferInputs, "runOffsets" | "asideRuns" | "threads" | "netDiffs">>,
  transfer: HandoffTransfer,
  plan: HandoffPlan,
  targetProvider: ProviderKind,
  toProviderThreadId: string | null,
  newMessage: string | null,
  rebuildReason: string | null = null,
  /** The target can call `skein_history` (its adapter runs app-owned tools). */
  historyTool = false,
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
    rebuildReason,
    historyTool,
    ...(inputs.runOffsets ? { runOffsets: inputs.runOffsets } : {}),
    ...(inputs.asideRuns ? { asideRuns: inputs.asideRuns } : {}),
    netDiff: netDiffFor(inputs, transfer, plan),
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

type Range = { readonly from: number; readonly to: number };
function coverageKey(coverage: ReadonlyArray<{ threadId: string; runs: readonly Range[] }>) {
  return coverage.map((c) => `${c.threadId}:${c.runs.map((r) => `${r.from}-${r.to}`)}`).join(";");
}

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

/** The ready handoff a user previewed (or edited) for a still-pending transfer, if any. */
export function previewOf(
  state: ThreadState,
  transferId: ContextTransferId | string,
): ContextHandoff | null {
  const current = currentHandoffOf(state, asId("transfer", transferId));
  return current?.status === "ready" ? current : null;
}

/** The user's own handoff text among the pending transfers; it overrides a native fork. */
export function manualPreviewOf(
  state: ThreadState,
  pending: readonly ContextTransfer[],
): ContextHandoff | null {
  for (const transfer of pending) {
    const preview = previewOf(state, transfer.id);
    if (preview?.strategy === "manual_context") return preview;
  }
  return null;
}
