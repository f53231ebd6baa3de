import { z } from "zod";
import {
  CheckpointId,
  ContextHandoffId,
  MessageId,
  NodeId,
  PlanId,
  ProviderThreadId,
  RunAttemptId,
  RunId,
  ThreadId,
} from "../ids.ts";
import {
  InteractionMode,
  IsoTimestamp,
  ProviderKind,
  ReasoningEffort,
  RunOrdinal,
  TokenUsage,
} from "./common.ts";

export const RunStatus = z.enum([
  "queued",
  "starting",
  "running",
  "waiting",
  "completed",
  "interrupted",
  "failed",
  "cancelled",
  "rolled_back",
]);
export type RunStatus = z.infer<typeof RunStatus>;

/** Runs in these states occupy the thread: a new run waits in the queue behind them. */
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ["starting", "running", "waiting"];

/**
 * B15: a live notice on a running run, such as the runtime retrying a model it cannot reach
 * ("Codex cannot reach the model: retry 2 of 5"). Cleared when output resumes or the run ends.
 */
export const RunProgress = z.object({
  kind: z.literal("model_unreachable"),
  text: z.string().min(1),
  /** The runtime's retry count and its limit, when it says them. */
  attempt: z.number().int().nonnegative().nullable(),
  maxAttempts: z.number().int().nonnegative().nullable(),
  /** The runtime's own words for why. */
  cause: z.string(),
  since: IsoTimestamp,
});
export type RunProgress = z.infer<typeof RunProgress>;

/**
 * E3: a counted, user-visible turn. Beyond SPEC: `model` (each run picks provider/model, T4),
 * `interactionMode` and `effort` (B5, issue 16), `interruptRequestedAt` (an interrupt is
 * requested, then confirmed by the provider turn), `error` (why a failed/interrupted run ended)
 * and `usage` (tokens, and cost where reported, summed over every provider turn of every attempt;
 * absent until a turn reports some).
 */
export const Run = z.object({
  id: RunId,
  threadId: ThreadId,
  ordinal: RunOrdinal,
  provider: ProviderKind,
  model: z.string().min(1).nullable(),
  /** B5: how the provider is asked to work on this run (absent on runs recorded before it). */
  interactionMode: InteractionMode.optional(),
  /** Reasoning effort sent with the turn; null/absent: the provider's default. */
  effort: ReasoningEffort.nullable().optional(),
  providerThreadId: ProviderThreadId.nullable(),
  userMessageId: MessageId,
  rootNodeId: NodeId.nullable(),
  activeAttemptId: RunAttemptId.nullable(),
  status: RunStatus,
  requestedAt: IsoTimestamp,
  startedAt: IsoTimestamp.nullable(),
  completedAt: IsoTimestamp.nullable(),
  checkpointId: CheckpointId.nullable(),
  contextHandoffId: ContextHandoffId.nullable(),
  sourcePlanRef: z.object({ threadId: ThreadId, planId: PlanId }).optional(),
  /** P6: a compaction run (`thread.compact`): the provider compacts its context, nothing is asked. */
  compact: z.literal(true).optional(),
  /** B6: the run was read from an adopted native thread's history, not run by Skein. */
  imported: z.literal(true).optional(),
  interruptRequestedAt: IsoTimestamp.nullable(),
  error: z.string().nullable(),
  usage: TokenUsage.optional(),
  /** B15: what the running turn is going through now, in words (absent/null: nothing to say). */
  progress: RunProgress.nullable().optional(),
});
export type Run = z.infer<typeof Run>;
