import type { CheckpointId, ContextHandoffKind, ContextHandoffStrategy } from "./inputs.ts";
import { span } from "./ordinal-ranges.ts";
import type { HandoffPlan, ResolveStartContextInput } from "./resolution-types.ts";
import type { RunSegment } from "./run-history.ts";

export type GeneratedStrategy = Exclude<ContextHandoffStrategy, "manual_context">;

export function handoffKindOf(strategy: GeneratedStrategy): ContextHandoffKind {
  switch (strategy) {
    case "full_thread_summary":
      return "portable_context";
    case "checkpoint_summary":
      return "checkpoint_context";
    case "delta_since_target_last_seen":
      return "delta_context";
  }
}

/**
 * A user-edited handoff replaces the generated text but keeps the kind and coverage of the
 * strategy it stands in for, so the transfer's resolution and audit trail stay accurate.
 */
export function makePlan(
  input: ResolveStartContextInput,
  strategy: GeneratedStrategy,
  selection: readonly RunSegment[],
  checkpointId: CheckpointId | null = null,
): HandoffPlan {
  const manual = input.manualContext ?? null;
  return {
    strategy: manual !== null ? "manual_context" : strategy,
    kind: handoffKindOf(strategy),
    selection,
    coveredRunOrdinals: span(selection.flatMap((segment) => segment.ordinals)),
    checkpointId,
    newMessage: input.message,
    manualText: manual,
  };
}
