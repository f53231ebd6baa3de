import { z } from "zod";
import { PathText, UserText } from "../inputs/text.ts";
import { Attachment, InteractionMode, ProviderKind, ReasoningEffort } from "../entities/common.ts";
import { RunProgress } from "../entities/run.ts";
import { UsageLimitHit } from "../entities/usage-limit.ts";
import {
  ContextHandoffId,
  MessageId,
  NodeId,
  PlanId,
  ProviderThreadId,
  RunAttemptId,
  RunId,
  ThreadId,
} from "../ids.ts";
import { defineCommand } from "./define.ts";

/** Send a message: queues a run; a run queued behind an active one stays queued. */
export const QueueRun = defineCommand("QueueRun", {
  threadId: ThreadId,
  runId: RunId,
  messageId: MessageId,
  text: UserText,
  attachments: z.array(Attachment).optional(),
  provider: ProviderKind,
  model: PathText.nullable().optional(),
  /** Absent: the thread's mode; a run implementing a plan (`sourcePlanRef`) runs in default. */
  interactionMode: InteractionMode.optional(),
  /** Absent: the thread's effort when the run uses the thread's provider, else the default. */
  effort: ReasoningEffort.nullable().optional(),
  /** Merge-back (T8): the fork whose latest stable point this run brings back. */
  bringBackFrom: ThreadId.optional(),
  /** B5 "implement this plan": an active proposed plan of this thread, accepted by this run. */
  sourcePlanRef: z.object({ threadId: ThreadId, planId: PlanId }).optional(),
  /** P6: the run asks its provider to compact the thread's context instead of sending `text`. */
  compact: z.literal(true).optional(),
});

/** Dispatch the next queued run on a recorded provider thread. */
export const StartRun = defineCommand("StartRun", {
  threadId: ThreadId,
  runId: RunId,
  attemptId: RunAttemptId,
  rootNodeId: NodeId,
  providerThreadId: ProviderThreadId,
  contextHandoffId: ContextHandoffId.optional(),
});

export const CancelQueuedRun = defineCommand("CancelQueuedRun", {
  threadId: ThreadId,
  runId: RunId,
});

/**
 * E4/B2: queue the thread's latest run again after it ended interrupted or failed; its next start
 * is a `retry` attempt from the last stable point (the provider thread as persisted).
 */
export const RetryRun = defineCommand("RetryRun", { threadId: ThreadId, runId: RunId });

export const InterruptRun = defineCommand("InterruptRun", { threadId: ThreadId, runId: RunId });

/** B15: sets (or clears, null) the running run's live notice; time comes from the command. */
export const NoteRunProgress = defineCommand("NoteRunProgress", {
  threadId: ThreadId,
  runId: RunId,
  progress: RunProgress.omit({ since: true }).nullable(),
});

/** Fail a run that has no provider turn to report for it (e.g. T5 `unsupported`). */
export const FailRun = defineCommand("FailRun", {
  threadId: ThreadId,
  runId: RunId,
  error: z.string().min(1),
  /** Issue 32: the run failed at its provider's usage limit (see UsageLimitReached). */
  usageLimit: UsageLimitHit.optional(),
});

/** Native steer: the provider accepts more input into the running turn. */
export const SteerRun = defineCommand("SteerRun", {
  threadId: ThreadId,
  runId: RunId,
  messageId: MessageId,
  text: UserText,
});

/** App-level steering/retry (R1): supersede the active attempt with a new one, same RunId. */
export const RestartAttempt = defineCommand("RestartAttempt", {
  threadId: ThreadId,
  runId: RunId,
  attemptId: RunAttemptId,
  rootNodeId: NodeId,
  providerThreadId: ProviderThreadId.optional(),
  reason: z.enum(["steering_restart", "retry", "provider_recovery"]),
  steer: z.object({ messageId: MessageId, text: UserText }).optional(),
});

/** R2: the runtime behind an in-flight run is gone. */
export const RecoverInterruptedRun = defineCommand("RecoverInterruptedRun", {
  threadId: ThreadId,
  runId: RunId,
  reason: z.string().min(1),
});
