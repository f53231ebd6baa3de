import { z } from "zod";
import { ContextHandoffId, ContextTransferId, RunId, ThreadId } from "../ids.ts";
import { IsoTimestamp, NativeRef, ProviderKind } from "./common.ts";
import { ContextSourcePoint } from "./context-source-point.ts";

export const ContextTransferType = z.enum([
  "fork",
  "provider_handoff",
  "merge_back",
  "subagent_spawn",
  "subagent_result",
]);
export type ContextTransferType = z.infer<typeof ContextTransferType>;

export const ContextTransferStatus = z.enum([
  "pending",
  "resolved_native",
  "resolved_portable",
  "failed",
  "consumed",
  "superseded",
]);
export type ContextTransferStatus = z.infer<typeof ContextTransferStatus>;

/** E13: how the target received the source's context. */
export const ContextTransferResolution = z.discriminatedUnion("strategy", [
  z.object({ strategy: z.literal("native_fork"), providerThreadRef: NativeRef }),
  z.object({ strategy: z.literal("portable_context"), contextHandoffId: ContextHandoffId }),
  z.object({ strategy: z.literal("delta_context"), contextHandoffId: ContextHandoffId }),
  z.object({ strategy: z.literal("checkpoint_context"), contextHandoffId: ContextHandoffId }),
]);
export type ContextTransferResolution = z.infer<typeof ContextTransferResolution>;

export const TransferCreatedBy = z.enum(["user", "agent", "system"]);
export type TransferCreatedBy = z.infer<typeof TransferCreatedBy>;

/**
 * E11: cheap to create, resolved lazily on first use. Beyond SPEC: `targetRunId` (a transfer
 * bound to one run, e.g. a merge-back), `consumedByRunId`, `fallback` (a failed native fork that
 * fell back to portable context, recorded as such) and `error` (why it failed).
 */
export const ContextTransfer = z.object({
  id: ContextTransferId,
  type: ContextTransferType,
  sourceThreadId: ThreadId,
  targetThreadId: ThreadId,
  sourcePoint: ContextSourcePoint,
  basePoint: ContextSourcePoint.nullable(),
  sourceProvider: ProviderKind.nullable(),
  targetProvider: ProviderKind.nullable(),
  status: ContextTransferStatus,
  resolution: ContextTransferResolution.nullable(),
  createdBy: TransferCreatedBy,
  createdAt: IsoTimestamp,
  consumedAt: IsoTimestamp.nullable(),
  targetRunId: RunId.nullable(),
  consumedByRunId: RunId.nullable(),
  fallback: z
    .object({ from: z.literal("native_fork"), reason: z.string().min(1), at: IsoTimestamp })
    .nullable(),
  error: z.string().nullable(),
});
export type ContextTransfer = z.infer<typeof ContextTransfer>;
