import type { CommandData } from "../commands.ts";
import type { ContextHandoff } from "../entities/context-handoff.ts";
import type { ContextTransfer } from "../entities/context-transfer.ts";
import { ConflictError, PreconditionFailedError, ValidationError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { CommandMeta } from "../meta.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { assertTransition } from "../transitions.ts";
import { requireAbsent, requireEntity, requireThread } from "./guards.ts";

/** A materialized handoff (E14) for a transfer that has not been resolved portably yet. */
export function recordHandoff(
  d: CommandData<"RecordHandoff">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  requireAbsent(s.handoffs, d.handoffId, "ContextHandoff");
  const transfer = requireEntity(s.transfers, d.transferId, "ContextTransfer");
  if (transfer.status !== "pending" && transfer.status !== "resolved_native") {
    throw new PreconditionFailedError(
      `transfer ${transfer.id} is ${transfer.status}; regenerate its handoff instead`,
    );
  }
  requireEntity(s.runs, d.targetRunId, "Run");
  const handoff: ContextHandoff = {
    id: d.handoffId,
    transferId: transfer.id,
    threadId: thread.id,
    targetRunId: d.targetRunId,
    kind: d.kind,
    fromProviderThreadIds: d.fromProviderThreadIds,
    toProviderThreadId: d.toProviderThreadId,
    coveredRunOrdinals: d.coveredRunOrdinals,
    strategy: d.strategy,
    status: d.status ?? "ready",
    summaryMessageId: d.summaryMessageId ?? null,
    summaryText: d.summaryText,
    payload: d.payload,
    createdByProvider: d.createdByProvider ?? null,
    createdAt: meta.at,
    updatedAt: meta.at,
  };
  return [{ type: "HandoffRecorded", data: { handoff, at: meta.at } }];
}

/**
 * A transfer's handoff may be previewed, regenerated or edited only until a run has taken the
 * context in (T11): afterwards the handoff is the record of what the target received. Exported
 * so the API refuses the same way before doing expensive work.
 */
export function requireHandoffChangeable(transfer: ContextTransfer): void {
  if (
    transfer.status === "consumed" ||
    transfer.status === "failed" ||
    transfer.status === "superseded"
  ) {
    throw new ConflictError(
      `transfer ${transfer.id} is ${transfer.status}; its handoff can no longer change`,
    );
  }
}

/** Replacing a handoff is only possible while its transfer has not been consumed (T11). */
function requireReplaceable(
  s: ThreadState,
  d: { handoffId: ContextHandoff["id"]; newHandoffId: ContextHandoff["id"] },
) {
  const previous = requireEntity(s.handoffs, d.handoffId, "ContextHandoff");
  const transfer = requireEntity(s.transfers, previous.transferId, "ContextTransfer");
  requireHandoffChangeable(transfer);
  assertTransition("ContextHandoff", previous.status, "superseded", previous.id);
  requireAbsent(s.handoffs, d.newHandoffId, "ContextHandoff");
  return { previous, transfer };
}

export function regenerateHandoff(
  d: CommandData<"RegenerateHandoff">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const { previous, transfer } = requireReplaceable(s, d);
  // A resolved transfer names its handoff's kind in its resolution; only a preview may change it.
  if (d.kind && d.kind !== previous.kind && transfer.resolution !== null) {
    throw new ValidationError(`transfer ${transfer.id} is resolved as ${previous.kind}`, [
      { path: "kind", message: `expected ${previous.kind}` },
    ]);
  }
  const handoff: ContextHandoff = {
    ...previous,
    id: d.newHandoffId,
    kind: d.kind ?? previous.kind,
    strategy: d.strategy ?? previous.strategy,
    coveredRunOrdinals: d.coveredRunOrdinals ?? previous.coveredRunOrdinals,
    fromProviderThreadIds: d.fromProviderThreadIds ?? previous.fromProviderThreadIds,
    status: "ready",
    summaryMessageId: null,
    summaryText: d.summaryText,
    payload: d.payload,
    createdAt: meta.at,
    updatedAt: meta.at,
  };
  return [
    {
      type: "HandoffReplaced",
      data: { previousHandoffId: previous.id, handoff, reason: "regenerated", at: meta.at },
    },
  ];
}

export function editHandoff(
  d: CommandData<"EditHandoff">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const { previous } = requireReplaceable(s, d);
  const handoff: ContextHandoff = {
    ...previous,
    id: d.newHandoffId,
    strategy: "manual_context",
    status: "ready",
    summaryMessageId: null,
    summaryText: d.summaryText,
    payload: d.payload ?? previous.payload,
    createdByProvider: null,
    createdAt: meta.at,
    updatedAt: meta.at,
  };
  return [
    {
      type: "HandoffReplaced",
      data: { previousHandoffId: previous.id, handoff, reason: "edited", at: meta.at },
    },
  ];
}
