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
import { IsoTimestamp, ProviderKind, RunOrdinal } from "./common.ts";

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
 * E3: a counted, user-visible turn. Beyond SPEC: `model` (each run picks provider/model, T4),
 * `interruptRequestedAt` (an interrupt is requested, then confirmed by the provider turn) and
 * `error` (why a failed/interrupted run ended).
 */
export const Run = z.object({
  id: RunId,
  threadId: ThreadId,
  ordinal: RunOrdinal,
  provider: ProviderKind,
  model: z.string().min(1).nullable(),
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
  interruptRequestedAt: IsoTimestamp.nullable(),
  error: z.string().nullable(),
});
export type Run = z.infer<typeof Run>;
