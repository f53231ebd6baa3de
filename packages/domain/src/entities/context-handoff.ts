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

const BriefRunRef = z.object({ threadId: ThreadId, ordinal: z.number().int().positive() });
const BriefFact = z.object({
  kind: z.enum(["goal", "decision", "constraint", "preference", "task"]),
  text: z.string(),
  by: z.enum(["person", "agent", "todo"]),
  run: BriefRunRef,
  status: z.enum(["pending", "running", "completed"]).optional(),
  closedBy: BriefRunRef.optional(),
});
const BriefSectionCounts = z.object({
  goal: z.number().int().nonnegative(),
  decisions: z.number().int().nonnegative(),
  constraints: z.number().int().nonnegative(),
  preferences: z.number().int().nonnegative(),
  openTasks: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  closed: z.number().int().nonnegative(),
});

/**
 * Issue 25: the structured head of a handoff (goal, code state, decisions, constraints, open
 * tasks, errors, what is no longer current, the last exchange), each item citing its run;
 * `left` counts what was extracted but left out for length (still searchable).
 */
export const HandoffBrief = z.object({
  goal: z.array(BriefFact),
  decisions: z.array(BriefFact),
  constraints: z.array(BriefFact),
  preferences: z.array(BriefFact),
  openTasks: z.array(BriefFact),
  files: z.array(
    z.object({
      fileName: z.string().min(1),
      /** 0 with no `lastRun`: a net diff's file no covered run changed (an uncommitted edit). */
      changes: z.number().int().nonnegative(),
      additions: z.number().int().nonnegative().nullable(),
      deletions: z.number().int().nonnegative().nullable(),
      lastRun: BriefRunRef.nullable(),
      latestDiff: z.string().nullable(),
      /** Issue 25 item 2: counts and diff are git's net diff (see `netDiff`). */
      net: z.literal(true).optional(),
    }),
  ),
  errors: z.array(
    z.object({
      command: z.string(),
      exitCode: z.number().int().nullable(),
      output: z.string().nullable(),
      run: BriefRunRef,
    }),
  ),
  closed: z.array(BriefFact),
  lastExchange: z
    .object({ run: BriefRunRef, user: z.string().nullable(), assistant: z.string().nullable() })
    .nullable(),
  left: BriefSectionCounts,
  /** Issue 25 item 2: `files` is git's net diff between these runs' ends (null: thread start). */
  netDiff: z.object({ from: BriefRunRef.nullable(), to: BriefRunRef.nullable() }).optional(),
});
export type HandoffBrief = z.infer<typeof HandoffBrief>;

/** Issue 25 item 3: who wrote a handoff's text, and why a provider's text was not used. */
export const HandoffAuthorship = z.object({
  by: z.enum(["skein", "provider"]),
  provider: ProviderKind.nullable(),
  /** Set when a provider-written summary was asked for and the deterministic one stands in. */
  fallbackReason: z.string().min(1).nullable(),
});
export type HandoffAuthorship = z.infer<typeof HandoffAuthorship>;

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
  /** Issue 25: the structured brief the text opens with. */
  brief: HandoffBrief.optional(),
  /** The text offers the target the read-only `skein_history` tool over the covered runs. */
  historyTool: z.literal(true).optional(),
  /** Issue 25: the text's estimated size against the budget it was built for. */
  tokens: z
    .object({ budget: z.number().int().positive(), used: z.number().int().nonnegative() })
    .optional(),
  /** Issue 25 item 3: who wrote the text (absent: Skein's deterministic builder). */
  authorship: HandoffAuthorship.optional(),
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
