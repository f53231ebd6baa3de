import { z } from "zod";
import { UserText } from "../inputs/text.ts";
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
  /** Only while the transfer is unresolved: a preview rebuilt for another provider may change kind. */
  kind: ContextHandoffKind.optional(),
  coveredRunOrdinals: CoveredRunOrdinals.optional(),
  fromProviderThreadIds: z.array(ProviderThreadId).optional(),
});

/** A user-edited handoff: a new `manual_context` handoff supersedes the old one. */
export const EditHandoff = defineCommand("EditHandoff", {
  threadId: ThreadId,
  handoffId: ContextHandoffId,
  newHandoffId: ContextHandoffId,
  summaryText: UserText,
  payload: HandoffPayload.optional(),
});

/**
 * A handoff built (or written by the user, `manual_context`) for a still-pending transfer before
 * any run consumes it, so it can be inspected and edited first; the consuming run binds it.
 */
export const PreviewHandoff = defineCommand("PreviewHandoff", {
  threadId: ThreadId,
  handoffId: ContextHandoffId,
  transferId: ContextTransferId,
  kind: ContextHandoffKind,
  strategy: ContextHandoffStrategy,
  fromProviderThreadIds: z.array(ProviderThreadId),
  coveredRunOrdinals: CoveredRunOrdinals,
  summaryText: z.string().min(1),
  payload: HandoffPayload,
});

/** The run that uses a previewed handoff takes it: its target run and provider thread. */
export const BindHandoff = defineCommand("BindHandoff", {
  threadId: ThreadId,
  handoffId: ContextHandoffId,
  runId: RunId,
  providerThreadId: ProviderThreadId,
});

/** A preview the consuming run cannot use as-is (other provider, stale coverage, native fork). */
export const SupersedeHandoff = defineCommand("SupersedeHandoff", {
  threadId: ThreadId,
  handoffId: ContextHandoffId,
  reason: z.string().min(1),
});
