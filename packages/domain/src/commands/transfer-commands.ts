import { z } from "zod";
import { ProviderKind } from "../entities/common.ts";
import {
  ContextHandoffKind,
  ContextHandoffStrategy,
  CoveredRunOrdinals,
  HandoffPayload,
} from "../entities/context-handoff.ts";
import { ContextSourcePoint } from "../entities/context-source-point.ts";
import {
  ContextTransferResolution,
  ContextTransferType,
  TransferCreatedBy,
} from "../entities/context-transfer.ts";
import {
  ContextHandoffId,
  ContextTransferId,
  MessageId,
  ProviderThreadId,
  RunId,
  ThreadId,
} from "../ids.ts";
import { defineCommand } from "./define.ts";

/** Recorded in the target thread's stream (`threadId` = target). */
export const CreateContextTransfer = defineCommand("CreateContextTransfer", {
  threadId: ThreadId,
  transferId: ContextTransferId,
  type: ContextTransferType.exclude(["fork"]),
  sourceThreadId: ThreadId,
  sourcePoint: ContextSourcePoint,
  basePoint: ContextSourcePoint.nullable().optional(),
  sourceProvider: ProviderKind.nullable().optional(),
  targetProvider: ProviderKind.nullable().optional(),
  createdBy: TransferCreatedBy,
  targetRunId: RunId.nullable().optional(),
});

export const ResolveContextTransfer = defineCommand("ResolveContextTransfer", {
  threadId: ThreadId,
  transferId: ContextTransferId,
  resolution: ContextTransferResolution,
});

/** The native fork failed: resolve with portable context instead, and record the failure. */
export const FallbackToPortable = defineCommand("FallbackToPortable", {
  threadId: ThreadId,
  transferId: ContextTransferId,
  reason: z.string().min(1),
  contextHandoffId: ContextHandoffId,
});

export const FailContextTransfer = defineCommand("FailContextTransfer", {
  threadId: ThreadId,
  transferId: ContextTransferId,
  error: z.string().min(1),
});

export const ConsumeContextTransfer = defineCommand("ConsumeContextTransfer", {
  threadId: ThreadId,
  transferId: ContextTransferId,
  runId: RunId,
});

export const SupersedeContextTransfer = defineCommand("SupersedeContextTransfer", {
  threadId: ThreadId,
  transferId: ContextTransferId,
  supersededBy: ContextTransferId.optional(),
});

export const RecordHandoff = defineCommand("RecordHandoff", {
  threadId: ThreadId,
  handoffId: ContextHandoffId,
  transferId: ContextTransferId,
  targetRunId: RunId,
  kind: ContextHandoffKind,
  strategy: ContextHandoffStrategy,
  fromProviderThreadIds: z.array(ProviderThreadId),
  toProviderThreadId: ProviderThreadId,
  coveredRunOrdinals: CoveredRunOrdinals,
  summaryText: z.string(),
  summaryMessageId: MessageId.nullable().optional(),
  payload: HandoffPayload,
  createdByProvider: ProviderKind.nullable().optional(),
  status: z.enum(["pending", "ready", "failed"]).optional(),
});

/** Rebuild a handoff; the new one supersedes the old (only before the transfer is consumed). */
export const RegenerateHandoff = defineCommand("RegenerateHandoff", {
  threadId: ThreadId,
  handoffId: ContextHandoffId,
  newHandoffId: ContextHandoffId,
  summaryText: z.string(),
  payload: HandoffPayload,
  strategy: ContextHandoffStrategy.exclude(["manual_context"]).optional(),
  coveredRunOrdinals: CoveredRunOrdinals.optional(),
  fromProviderThreadIds: z.array(ProviderThreadId).optional(),
});

/** A user-edited handoff: a new `manual_context` handoff supersedes the old one. */
export const EditHandoff = defineCommand("EditHandoff", {
  threadId: ThreadId,
  handoffId: ContextHandoffId,
  newHandoffId: ContextHandoffId,
  summaryText: z.string().min(1),
  payload: HandoffPayload.optional(),
});
