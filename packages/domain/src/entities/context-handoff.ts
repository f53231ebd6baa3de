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

/** One covered run as the handoff builder saw it (packages/transfer produces these). */
export const HandoffRunSummary = z.object({
  runId: RunId,
  ordinal: z.number().int().positive(),
  provider: ProviderKind,
  model: z.string().nullable(),
  status: z.string().min(1),
  userMessages: z.array(z.object({ messageId: MessageId.nullable(), text: z.string() })),
  assistantReplies: z.array(z.object({ messageId: MessageId.nullable(), text: z.string() })),
  commands: z.array(
    z.object({
      input: z.string(),
      status: z.string(),
      exitCode: z.number().int().nullable(),
      outputExcerpt: z.string().nullable(),
    }),
  ),
  fileChanges: z.array(
    z.object({
      path: z.string().min(1),
      additions: z.number().int().nonnegative().nullable(),
      deletions: z.number().int().nonnegative().nullable(),
    }),
  ),
  plans: z.array(
    z.object({
      kind: z.enum(["proposed_plan", "todo_list", "questions"]),
      markdown: z.string().nullable(),
      steps: z.array(z.object({ text: z.string(), status: z.string() })),
    }),
  ),
  errors: z.array(z.string()),
});
export type HandoffRunSummary = z.infer<typeof HandoffRunSummary>;

/** The structured body of a handoff; `summaryText` is its deterministic rendering. */
export const HandoffPayload = z.object({
  version: z.literal(1),
  sourceThreadId: ThreadId,
  runs: z.array(HandoffRunSummary),
  /** Runs or parts the builder left out to stay within budget, said plainly. */
  omitted: z.array(z.string()),
  tokenEstimate: z.number().int().nonnegative(),
});
export type HandoffPayload = z.infer<typeof HandoffPayload>;

/** E14: the lazily materialized, auditable context artifact; never a hidden prompt concat. */
export const ContextHandoff = z.object({
  id: ContextHandoffId,
  transferId: ContextTransferId,
  threadId: ThreadId,
  targetRunId: RunId,
  kind: ContextHandoffKind,
  fromProviderThreadIds: z.array(ProviderThreadId),
  toProviderThreadId: ProviderThreadId,
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
