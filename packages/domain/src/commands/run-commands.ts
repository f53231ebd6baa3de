import { z } from "zod";
import { Attachment, ProviderKind } from "../entities/common.ts";
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
  text: z.string().min(1),
  attachments: z.array(Attachment).optional(),
  provider: ProviderKind,
  model: z.string().min(1).nullable().optional(),
  /** Merge-back (T8): the fork whose latest stable point this run brings back. */
  bringBackFrom: ThreadId.optional(),
  sourcePlanRef: z.object({ threadId: ThreadId, planId: PlanId }).optional(),
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

export const InterruptRun = defineCommand("InterruptRun", { threadId: ThreadId, runId: RunId });

/** Fail a run that has no provider turn to report for it (e.g. T5 `unsupported`). */
export const FailRun = defineCommand("FailRun", {
  threadId: ThreadId,
  runId: RunId,
  error: z.string().min(1),
});

/** Native steer: the provider accepts more input into the running turn. */
export const SteerRun = defineCommand("SteerRun", {
  threadId: ThreadId,
  runId: RunId,
  messageId: MessageId,
  text: z.string().min(1),
});

/** App-level steering/retry (R1): supersede the active attempt with a new one, same RunId. */
export const RestartAttempt = defineCommand("RestartAttempt", {
  threadId: ThreadId,
  runId: RunId,
  attemptId: RunAttemptId,
  rootNodeId: NodeId,
  providerThreadId: ProviderThreadId.optional(),
  reason: z.enum(["steering_restart", "retry", "provider_recovery"]),
  steer: z.object({ messageId: MessageId, text: z.string().min(1) }).optional(),
});

/** R2: the runtime behind an in-flight run is gone. */
export const RecoverInterruptedRun = defineCommand("RecoverInterruptedRun", {
  threadId: ThreadId,
  runId: RunId,
  reason: z.string().min(1),
});
