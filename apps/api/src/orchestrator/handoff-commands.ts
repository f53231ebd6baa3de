import {
  asId,
  type ContextHandoffId,
  type ContextTransferId,
  HandoffPayload,
  type IdSource,
  PreconditionFailedError,
  type ThreadId,
} from "@skein/domain";
import { buildHandoff, type RunSegment } from "@skein/transfer";
import type { AggregateRepository } from "./aggregate-repository.ts";
import { gatherTransferInputs } from "./start-context.ts";

/**
 * Rebuilds a transfer's current handoff from the log (same strategy and coverage), or replaces
 * it with the user's own text (`manual_context`); the new handoff supersedes the old one. The
 * domain refuses either once the transfer was consumed.
 */
export async function regenerateHandoff(
  repo: AggregateRepository,
  ids: IdSource,
  threadId: ThreadId,
  transferId: ContextTransferId,
  options: { commandId?: string; manualText?: string },
): Promise<{ handoffId: ContextHandoffId; sequence: number }> {
  const state = await repo.thread(threadId);
  const transfer = state.transfers.get(transferId);
  const current = [...state.handoffs.values()].find(
    (h) => h.transferId === transferId && h.status !== "superseded",
  );
  if (!transfer || !current) {
    throw new PreconditionFailedError(
      `transfer ${transferId} has no handoff yet: it is materialized when the target's next run starts`,
    );
  }
  const newHandoffId = ids.next("handoff");
  if (options.manualText !== undefined) {
    const result = await repo.execute(
      {
        type: "EditHandoff",
        data: { threadId, handoffId: current.id, newHandoffId, summaryText: options.manualText },
      },
      { commandId: options.commandId, receipt: { handoffId: newHandoffId } },
    );
    return { ...(result.receipt as { handoffId: ContextHandoffId }), sequence: result.sequence };
  }
  const inputs = await gatherTransferInputs(repo, state);
  const selection: RunSegment[] = current.payload.coverage.map((c) => ({
    threadId: c.threadId,
    ordinals: c.runs.flatMap((r) =>
      Array.from({ length: r.to - r.from + 1 }, (_, i) => r.from + i),
    ),
  }));
  const strategy = current.strategy === "manual_context" ? "full_thread_summary" : current.strategy;
  const build = buildHandoff({
    strategy,
    kind: current.kind,
    transfer,
    selection,
    runs: inputs.runs,
    turnItems: inputs.turnItems,
    targetProvider: current.payload.targetProvider,
    toProviderThreadId: current.toProviderThreadId,
    checkpoint: current.payload.checkpoint
      ? (inputs.checkpoints.find((c) => c.id === current.payload.checkpoint?.checkpointId) ?? null)
      : null,
  });
  const result = await repo.execute(
    {
      type: "RegenerateHandoff",
      data: {
        threadId,
        handoffId: current.id,
        newHandoffId,
        summaryText: build.summaryText,
        payload: HandoffPayload.parse(build.payload),
        strategy,
        ...(build.coveredRunOrdinals ? { coveredRunOrdinals: build.coveredRunOrdinals } : {}),
        fromProviderThreadIds: build.fromProviderThreadIds.map((id) => asId("providerThread", id)),
      },
    },
    { commandId: options.commandId, receipt: { handoffId: newHandoffId } },
  );
  return { ...(result.receipt as { handoffId: ContextHandoffId }), sequence: result.sequence };
}
