import type { CommandData } from "../commands.ts";
import type { ContextHandoff } from "../entities/context-handoff.ts";
import type { ContextTransfer, ContextTransferResolution } from "../entities/context-transfer.ts";
import type { TurnItemOf } from "../entities/turn-item.ts";
import { InvalidTransitionError, PreconditionFailedError, ValidationError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { ContextHandoffId, ContextTransferId } from "../ids.ts";
import type { CommandMeta } from "../meta.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { handoffIdOf } from "../state/evolve/transfers.ts";
import { assertTransition } from "../transitions.ts";
import { itemBase } from "./builders.ts";
import { requireAbsent, requireEntity, requireThread } from "./guards.ts";

/** Provider switches (T6), merge-backs, subagent spawn/result transfers; forks use ForkThread. */
export function createContextTransfer(
  d: CommandData<"CreateContextTransfer">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  requireAbsent(s.transfers, d.transferId, "ContextTransfer");
  if (d.sourcePoint.threadId !== d.sourceThreadId) {
    throw new ValidationError("the source point must lie in the source thread", [
      { path: "sourcePoint.threadId", message: `expected ${d.sourceThreadId}` },
    ]);
  }
  if (d.type === "provider_handoff") {
    if (d.sourceThreadId !== thread.id) {
      throw new ValidationError("a provider handoff stays in the same app thread", [
        { path: "sourceThreadId", message: `expected ${thread.id}` },
      ]);
    }
    // The target may be the same provider: when its thread cannot be resumed (T7), the runs are
    // handed to a fresh provider thread of that provider.
    if (!d.targetProvider) {
      throw new ValidationError("a provider handoff needs a target provider", [
        { path: "targetProvider", message: "required for provider_handoff" },
      ]);
    }
  }
  if (d.type === "merge_back" && !d.basePoint) {
    throw new ValidationError("a merge-back needs the fork's original source point", [
      { path: "basePoint", message: "required for merge_back" },
    ]);
  }
  if (d.targetRunId) {
    const run = requireEntity(s.runs, d.targetRunId, "Run");
    // A subagent's result arrives while the parent's run is live (it answers the parent's tool
    // call); every other transfer must be settled before its target run starts.
    const open =
      d.type === "subagent_result"
        ? ["queued", "starting", "running", "waiting"].includes(run.status)
        : run.status === "queued" || run.status === "starting";
    if (!open) {
      throw new PreconditionFailedError(`run ${run.id} is ${run.status}; too late for a transfer`);
    }
  }
  const transfer: ContextTransfer = {
    id: d.transferId,
    type: d.type,
    sourceThreadId: d.sourceThreadId,
    targetThreadId: thread.id,
    sourcePoint: d.sourcePoint,
    basePoint: d.basePoint ?? null,
    sourceProvider: d.sourceProvider ?? null,
    targetProvider: d.targetProvider ?? null,
    status: "pending",
    resolution: null,
    createdBy: d.createdBy,
    createdAt: meta.at,
    consumedAt: null,
    targetRunId: d.targetRunId ?? null,
    consumedByRunId: null,
    fallback: null,
    error: null,
  };
  return [{ type: "ContextTransferCreated", data: { transfer, at: meta.at } }];
}

const KIND_BY_STRATEGY = {
  portable_context: "portable_context",
  delta_context: "delta_context",
  checkpoint_context: "checkpoint_context",
} as const;

function requireUsableHandoff(
  s: ThreadState,
  transferId: ContextTransferId,
  handoffId: ContextHandoffId,
): ContextHandoff {
  const handoff = requireEntity(s.handoffs, handoffId, "ContextHandoff");
  if (handoff.transferId !== transferId) {
    throw new PreconditionFailedError(
      `handoff ${handoff.id} belongs to transfer ${handoff.transferId}`,
    );
  }
  if (handoff.status !== "ready") {
    throw new PreconditionFailedError(`handoff ${handoff.id} is ${handoff.status}`);
  }
  // A previewed handoff must be bound first: the record says which provider thread got it.
  if (handoff.toProviderThreadId === null) {
    throw new PreconditionFailedError(`handoff ${handoff.id} is not bound to a provider thread`);
  }
  return handoff;
}

export function resolveContextTransfer(
  d: CommandData<"ResolveContextTransfer">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const transfer = requireEntity(s.transfers, d.transferId, "ContextTransfer");
  const resolution = d.resolution;
  const status = resolution.strategy === "native_fork" ? "resolved_native" : "resolved_portable";
  if (transfer.status === "resolved_native" && status === "resolved_portable") {
    throw new PreconditionFailedError(
      `transfer ${transfer.id} resolved natively; a failed native fork goes through FallbackToPortable`,
    );
  }
  assertTransition("ContextTransfer", transfer.status, status, transfer.id);
  if (resolution.strategy !== "native_fork") {
    const handoff = requireUsableHandoff(s, transfer.id, resolution.contextHandoffId);
    if (handoff.kind !== KIND_BY_STRATEGY[resolution.strategy]) {
      throw new ValidationError(
        `handoff ${handoff.id} is ${handoff.kind}, not ${resolution.strategy}`,
        [{ path: "resolution.strategy", message: `expected ${handoff.kind}` }],
      );
    }
  }
  return [
    {
      type: "ContextTransferResolved",
      data: { transferId: transfer.id, status, resolution, at: meta.at },
    },
  ];
}

/**
 * The one way into resolved_portable from resolved_native (or straight from pending when the
 * native attempt was never recorded): a native fork failed; the record keeps the reason.
 */
export function fallbackToPortable(
  d: CommandData<"FallbackToPortable">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const transfer = requireEntity(s.transfers, d.transferId, "ContextTransfer");
  if (transfer.status !== "pending" && transfer.status !== "resolved_native") {
    throw new InvalidTransitionError(
      "ContextTransfer",
      transfer.status,
      "resolved_portable",
      transfer.id,
    );
  }
  const handoff = requireUsableHandoff(s, transfer.id, d.contextHandoffId);
  const resolution: ContextTransferResolution = {
    strategy: handoff.kind,
    contextHandoffId: handoff.id,
  };
  return [
    {
      type: "ContextTransferFellBack",
      data: { transferId: transfer.id, reason: d.reason, resolution, at: meta.at },
    },
  ];
}

export function failContextTransfer(
  d: CommandData<"FailContextTransfer">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const transfer = requireEntity(s.transfers, d.transferId, "ContextTransfer");
  assertTransition("ContextTransfer", transfer.status, "failed", transfer.id);
  return [
    {
      type: "ContextTransferFailed",
      data: { transferId: transfer.id, error: d.error, at: meta.at },
    },
  ];
}

/** The run took the context in; a materialized handoff shows up as a `handoff` turn item. */
export function consumeContextTransfer(
  d: CommandData<"ConsumeContextTransfer">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  const transfer = requireEntity(s.transfers, d.transferId, "ContextTransfer");
  assertTransition("ContextTransfer", transfer.status, "consumed", transfer.id);
  const run = requireEntity(s.runs, d.runId, "Run");
  if (run.status !== "queued" && run.status !== "starting" && run.status !== "running") {
    throw new PreconditionFailedError(`run ${run.id} is ${run.status}`);
  }
  if (transfer.targetRunId && transfer.targetRunId !== run.id) {
    throw new PreconditionFailedError(
      `transfer ${transfer.id} is bound to run ${transfer.targetRunId}`,
    );
  }
  const handoffId = handoffIdOf(transfer.resolution);
  const handoff = handoffId ? s.handoffs.get(handoffId) : undefined;
  // Resolution requires a bound handoff; the run's own thread covers records from before that.
  const toProviderThreadId = handoff?.toProviderThreadId ?? run.providerThreadId;
  const item: TurnItemOf<"handoff"> | null =
    handoff && toProviderThreadId
      ? {
          ...itemBase({
            id: meta.ids.next("item"),
            threadId: thread.id,
            run,
            status: "completed",
            at: meta.at,
          }),
          type: "handoff",
          handoffId: handoff.id,
          transferId: transfer.id,
          strategy: handoff.strategy,
          fromProviderThreadIds: handoff.fromProviderThreadIds,
          toProviderThreadId,
          coveredRunOrdinals: handoff.coveredRunOrdinals,
        }
      : null;
  return [
    {
      type: "ContextTransferConsumed",
      data: { transferId: transfer.id, runId: run.id, item, at: meta.at },
    },
  ];
}

export function supersedeContextTransfer(
  d: CommandData<"SupersedeContextTransfer">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const transfer = requireEntity(s.transfers, d.transferId, "ContextTransfer");
  assertTransition("ContextTransfer", transfer.status, "superseded", transfer.id);
  if (d.supersededBy) {
    if (d.supersededBy === transfer.id)
      throw new ValidationError("a transfer cannot supersede itself");
    requireEntity(s.transfers, d.supersededBy, "ContextTransfer");
  }
  return [
    {
      type: "ContextTransferSuperseded",
      data: { transferId: transfer.id, supersededBy: d.supersededBy ?? null, at: meta.at },
    },
  ];
}
