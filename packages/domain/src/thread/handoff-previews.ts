import type { CommandData } from "../commands.ts";
import type { ContextHandoff } from "../entities/context-handoff.ts";
import { ConflictError, PreconditionFailedError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { CommandMeta } from "../meta.ts";
import { handoffIdOf } from "../state/evolve/transfers.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { assertTransition } from "../transitions.ts";
import { requireHandoffChangeable } from "./handoffs.ts";
import { requireAbsent, requireEntity, requireThread } from "./guards.ts";

/** The transfer's handoff that is not superseded yet, if any (at most one by construction). */
export function currentHandoffOf(
  s: ThreadState,
  transferId: ContextHandoff["transferId"],
): ContextHandoff | null {
  for (const handoff of s.handoffs.values()) {
    if (handoff.transferId === transferId && handoff.status !== "superseded") return handoff;
  }
  return null;
}

/**
 * Materializes a handoff for a transfer no run has resolved yet, so the user can read (and
 * edit) what will be carried over before it is sent (issue 8). It has no target run or provider
 * thread until the consuming run binds it.
 */
export function previewHandoff(
  d: CommandData<"PreviewHandoff">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  requireAbsent(s.handoffs, d.handoffId, "ContextHandoff");
  const transfer = requireEntity(s.transfers, d.transferId, "ContextTransfer");
  requireHandoffChangeable(transfer);
  if (transfer.status !== "pending") {
    throw new ConflictError(`transfer ${transfer.id} is already ${transfer.status}`);
  }
  const current = currentHandoffOf(s, transfer.id);
  // Two live handoffs for one transfer would make "the text the target gets" ambiguous.
  if (current) {
    throw new ConflictError(
      `transfer ${transfer.id} already has handoff ${current.id}; regenerate or edit it instead`,
    );
  }
  const handoff: ContextHandoff = {
    id: d.handoffId,
    transferId: transfer.id,
    threadId: thread.id,
    targetRunId: null,
    kind: d.kind,
    fromProviderThreadIds: d.fromProviderThreadIds,
    toProviderThreadId: null,
    coveredRunOrdinals: d.coveredRunOrdinals,
    strategy: d.strategy,
    status: "ready",
    summaryMessageId: null,
    summaryText: d.summaryText,
    payload: d.payload,
    createdByProvider: null,
    createdAt: meta.at,
    updatedAt: meta.at,
  };
  return [{ type: "HandoffRecorded", data: { handoff, at: meta.at } }];
}

const OPEN_RUN = new Set(["queued", "starting"]);

/** The consuming run takes a previewed handoff: it now targets that run's provider thread. */
export function bindHandoff(
  d: CommandData<"BindHandoff">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const handoff = requireEntity(s.handoffs, d.handoffId, "ContextHandoff");
  const transfer = requireEntity(s.transfers, handoff.transferId, "ContextTransfer");
  requireHandoffChangeable(transfer);
  if (transfer.status === "resolved_portable") {
    throw new ConflictError(`transfer ${transfer.id} is already resolved with its handoff`);
  }
  if (handoff.status !== "ready") {
    throw new PreconditionFailedError(`handoff ${handoff.id} is ${handoff.status}`);
  }
  const run = requireEntity(s.runs, d.runId, "Run");
  if (!OPEN_RUN.has(run.status))
    throw new PreconditionFailedError(`run ${run.id} is ${run.status}`);
  requireEntity(s.providerThreads, d.providerThreadId, "ProviderThread");
  // A run that died before resolving may leave its binding behind; a live one keeps it.
  const bound = handoff.targetRunId ? s.runs.get(handoff.targetRunId) : undefined;
  if (bound && bound.id !== run.id && OPEN_RUN.has(bound.status)) {
    throw new PreconditionFailedError(`handoff ${handoff.id} is bound to run ${bound.id}`);
  }
  return [
    {
      type: "HandoffBound",
      data: {
        handoffId: handoff.id,
        runId: run.id,
        providerThreadId: d.providerThreadId,
        at: meta.at,
      },
    },
  ];
}

/** Sets a handoff aside without a replacement; the transfer must not be resolved with it. */
export function supersedeHandoff(
  d: CommandData<"SupersedeHandoff">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const handoff = requireEntity(s.handoffs, d.handoffId, "ContextHandoff");
  const transfer = requireEntity(s.transfers, handoff.transferId, "ContextTransfer");
  requireHandoffChangeable(transfer);
  if (handoffIdOf(transfer.resolution) === handoff.id) {
    throw new PreconditionFailedError(
      `transfer ${transfer.id} is resolved with handoff ${handoff.id}; regenerate it instead`,
    );
  }
  assertTransition("ContextHandoff", handoff.status, "superseded", handoff.id);
  return [
    {
      type: "HandoffSuperseded",
      data: { handoffId: handoff.id, reason: d.reason, at: meta.at },
    },
  ];
}
