import { z } from "zod";
import { NodeId, ProviderThreadId, ProviderTurnId, RunAttemptId, RunId } from "../ids.ts";
import { IsoTimestamp, ProviderKind } from "./common.ts";

export const RunAttemptStatus = z.enum([
  "pending",
  "running",
  "completed",
  "interrupted",
  "failed",
  "cancelled",
  "superseded",
]);
export type RunAttemptStatus = z.infer<typeof RunAttemptStatus>;

export const RunAttemptReason = z.enum([
  "initial",
  "steering_restart",
  "retry",
  "provider_recovery",
]);
export type RunAttemptReason = z.infer<typeof RunAttemptReason>;

/** E4: one provider execution of a run; superseded/interrupted attempts stay for audit. */
export const RunAttempt = z.object({
  id: RunAttemptId,
  runId: RunId,
  attemptOrdinal: z.number().int().positive(),
  rootNodeId: NodeId,
  provider: ProviderKind,
  providerThreadId: ProviderThreadId,
  providerTurnId: ProviderTurnId.nullable(),
  reason: RunAttemptReason,
  status: RunAttemptStatus,
  startedAt: IsoTimestamp.nullable(),
  completedAt: IsoTimestamp.nullable(),
});
export type RunAttempt = z.infer<typeof RunAttempt>;
