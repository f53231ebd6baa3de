import { z } from "zod";
import { ContextHandoff } from "../entities/context-handoff.ts";
import { ContextTransfer, ContextTransferResolution } from "../entities/context-transfer.ts";
import { HandoffItem } from "../entities/turn-item.ts";
import { ContextHandoffId, ContextTransferId, ProviderThreadId, RunId } from "../ids.ts";
import { defineEvent } from "./define.ts";

/** Lives in the TARGET thread's stream: the target resolves it. */
export const ContextTransferCreated = defineEvent("ContextTransferCreated", {
  transfer: ContextTransfer,
});
export const ContextTransferResolved = defineEvent("ContextTransferResolved", {
  transferId: ContextTransferId,
  status: z.enum(["resolved_native", "resolved_portable"]),
  resolution: ContextTransferResolution,
});
/** A native fork failed and portable context replaced it; the transfer records why. */
export const ContextTransferFellBack = defineEvent("ContextTransferFellBack", {
  transferId: ContextTransferId,
  reason: z.string().min(1),
  resolution: ContextTransferResolution,
});
export const ContextTransferFailed = defineEvent("ContextTransferFailed", {
  transferId: ContextTransferId,
  error: z.string().min(1),
});
/** `item` is the handoff turn item when a materialized handoff entered the run. */
export const ContextTransferConsumed = defineEvent("ContextTransferConsumed", {
  transferId: ContextTransferId,
  runId: RunId,
  item: HandoffItem.nullable(),
});
export const ContextTransferSuperseded = defineEvent("ContextTransferSuperseded", {
  transferId: ContextTransferId,
  supersededBy: ContextTransferId.nullable(),
});
export const HandoffRecorded = defineEvent("HandoffRecorded", { handoff: ContextHandoff });
/** The old handoff is superseded; the transfer's resolution follows the new one. */
export const HandoffReplaced = defineEvent("HandoffReplaced", {
  previousHandoffId: ContextHandoffId,
  handoff: ContextHandoff,
  reason: z.enum(["regenerated", "edited"]),
});
/** A previewed handoff was taken by the run that consumes its transfer. */
export const HandoffBound = defineEvent("HandoffBound", {
  handoffId: ContextHandoffId,
  runId: RunId,
  providerThreadId: ProviderThreadId,
});
/** A handoff was set aside without a replacement (the run builds its own or needs none). */
export const HandoffSuperseded = defineEvent("HandoffSuperseded", {
  handoffId: ContextHandoffId,
  reason: z.string().min(1),
});
