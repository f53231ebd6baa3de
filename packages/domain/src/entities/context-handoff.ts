import { z } from "zod";
import {
  ContextHandoffId,
  ContextTransferId,
  MessageId,
  ProviderThreadId,
  RunId,
  ThreadId,
} from "../ids.ts";
import { IsoTimestamp, ProviderKind } from "./common.ts";

export const ContextHandoffKind = z.enum([
  "portable_context",
  "delta_context",
  "checkpoint_context",
]);
export type ContextHandoffKind = z.infer<typeof ContextHandoffKind>;

export const ContextHandoffStrategy = z.enum([
  "delta_since_target_last_seen",
  "full_thread_summary",
  "checkpoint_summary",
  "manual_context",
]);
export type ContextHandoffStrategy = z.infer<typeof ContextHandoffStrategy>;

export const ContextHandoffStatus = z.enum(["pending", "ready", "failed", "superseded"]);
export type ContextHandoffStatus = z.infer<typeof ContextHandoffStatus>;

export const CoveredRunOrdinals = z
  .object({ from: z.number().int().positive(), to: z.number().int().positive() })
  .refine((r) => r.from <= r.to, { message: "from must not exceed to", path: ["to"] });
export type CoveredRunOrdinals = z.infer<typeof CoveredRunOrdinals>;

const OrdinalRange = z.object({
  from: z.number().int().positive(),
  to: z.number().int().positive(),
});

/**
 * One covered run as packages/transfer handed it off. Omitted runs keep their identity and
 * provider but no content; partial runs keep what fit and count what was left out.
 */
export const HandoffRunSummary = z.object({
  threadId: ThreadId,
  runId: RunId,
  ordinal: z.number().int().positive(),
  provider: ProviderKind,
  providerThreadId: ProviderThreadId.nullable(),
  status: z.string().min(1),
  inclusion: z.enum(["full", "partial", "omitted"]),
  userMessage: z.string().nullable(),
  plans: z.array(z.string()),
  commands: z.array(
    z.object({
      input: z.string(),
      exitCode: z.number().int().nullable(),
      status: z.string().nullable(),
    }),
  ),
  fileChanges: z.array(
    z.object({
      fileName: z.string().min(1),
      additions: z.number().int().nonnegative().nullable(),
      deletions: z.number().int().nonnegative().nullable(),
    }),
  ),
  assistantReply: z.string().nullable(),
  errors: z.array(z.string()),
  omittedItems: z.number().int().nonnegative(),
  /** P6: the provider compacted its context in this run (absent: it did not). */
  compacted: z.literal(true).optional(),
  /** E16: files the run's user message carried, by reference to the stored bytes. */
  attachments: z
    .array(
      z.object({ name: z.string().min(1), mimeType: z.string().min(1), ref: z.string().min(1) }),
    )
    .optional(),
});
export type HandoffRunSummary = z.infer<typeof HandoffRunSummary>;

const ThreadRanges = z.object({ threadId: ThreadId, runs: z.array(OrdinalRange) });

/**
 * The structured body of a handoff, exactly as packages/transfer builds it; `summaryText` is its
 * deterministic rendering.
 */
export const HandoffPayload = z.object({
  version: z.literal(1),
  strategy: ContextHandoffStrategy,
  kind: ContextHandoffKind,
  transfer: z.object({
    id: ContextTransferId,
    type: z.string().min(1),
    sourceThreadId: ThreadId,
    targetThreadId: ThreadId,
    basePoint: z.unknown().optional(),
  }),
  targetProvider: ProviderKind.nullable(),
  toProviderThreadId: ProviderThreadId.nullable(),
  coverage: z.array(ThreadRanges),
  omitted: z.array(ThreadRanges),
  checkpoint: z
    .object({
      checkpointId: z.string().min(1),
      ref: z.string().nullable(),
      appRunOrdinal: z.number().int().positive().nullable(),
      status: z.string().nullable(),
      files: z.array(
        z.object({
          fileName: z.string().min(1),
          changes: z.number().int().nonnegative(),
          additions: z.number().int().nonnegative().nullable(),
          deletions: z.number().int().nonnegative().nullable(),
        }),
      ),
      filesShown: z.number().int().nonnegative(),
    })
    .nullable(),
  runs: z.array(HandoffRunSummary),
  manualText: z.string().nullable(),
  /** Why the provider thread was rebuilt instead of continued (a failed resume, and where). */
  rebuildReason: z.string().min(1).optional(),
});
export type HandoffPayload = z.infer<typeof HandoffPayload>;

/**
 * E14: the lazily materialized, auditable context artifact; never a hidden prompt concat.
 * `targetRunId` and `toProviderThreadId` are null while the handoff is a preview of a pending
 * transfer (built or edited before the run that consumes it); that run binds them.
 */
export const ContextHandoff = z.object({
  id: ContextHandoffId,
  transferId: ContextTransferId,
  threadId: ThreadId,
  targetRunId: RunId.nullable(),
  kind: ContextHandoffKind,
  fromProviderThreadIds: z.array(ProviderThreadId),
  toProviderThreadId: ProviderThreadId.nullable(),
  coveredRunOrdinals: CoveredRunOrdinals,
  strategy: ContextHandoffStrategy,
  status: ContextHandoffStatus,
  summaryMessageId: MessageId.nullable(),
  summaryText: z.string(),
  payload: HandoffPayload,
  createdByProvider: ProviderKind.nullable(),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});
export type ContextHandoff = z.infer<typeof ContextHandoff>;
