import type { ResolveStartContextInput, StartContextResolution } from "./resolution-types.ts";
import { resolveOnThread } from "./resolve-coverage.ts";
import { resolveMerge } from "./resolve-merge.ts";
import { resolveSeed } from "./resolve-seed.ts";
import type { PointLookup } from "./run-history.ts";

/**
 * T5: the one provider-agnostic hook at run start. Pure: everything it needs is in `input`, and
 * the same input gives the same resolution. The caller records what it decides (transfer status,
 * handoff, provider thread) and fails the run before any provider work on `unsupported`.
 */
export function resolveStartContext(input: ResolveStartContextInput): StartContextResolution {
  const pending = input.pendingTransfers
    .filter((t) => t.status === "pending" && t.targetThreadId === input.threadId)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const ids = pending.map((t) => t.id);
  // A run consumes at most one handoff (Run.contextHandoffId), so two transfers cannot both be
  // honoured by this run; guessing which one to drop would lose context silently.
  if (pending.length > 1) {
    return {
      kind: "unsupported",
      reason: "multiple_pending_transfers",
      detail: `thread ${input.threadId} has ${pending.length} pending transfers: ${ids.join(", ")}`,
      transferIds: ids,
    };
  }
  const transfer = pending[0] ?? null;
  if (transfer?.targetProvider && transfer.targetProvider !== input.provider) {
    return {
      kind: "unsupported",
      reason: "target_provider_mismatch",
      detail: `transfer ${transfer.id} targets ${transfer.targetProvider}, the run uses ${input.provider}`,
      transferIds: ids,
    };
  }
  const lookup: PointLookup = {
    runs: input.runs,
    checkpoints: input.checkpoints ?? [],
    turnItems: input.turnItems ?? [],
  };
  switch (transfer?.type) {
    case undefined:
      return resolveOnThread(input, lookup, null);
    case "provider_handoff":
      if (transfer.sourceThreadId !== transfer.targetThreadId) {
        return {
          kind: "unsupported",
          reason: "invalid_transfer",
          detail: `provider_handoff ${transfer.id} must have the same source and target thread (T6)`,
          transferIds: ids,
        };
      }
      return resolveOnThread(input, lookup, transfer);
    case "fork":
    case "subagent_spawn":
      return resolveSeed(input, lookup, transfer);
    case "merge_back":
    case "subagent_result":
      return resolveMerge(input, lookup, transfer);
  }
}
