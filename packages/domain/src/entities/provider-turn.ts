import { z } from "zod";
import { NodeId, ProviderThreadId, ProviderTurnId, RunAttemptId } from "../ids.ts";
import { IsoTimestamp, NativeRef, TokenUsage } from "./common.ts";

export const ProviderTurnStatus = z.enum([
  "pending",
  "running",
  "completed",
  "interrupted",
  "failed",
  "cancelled",
]);
export type ProviderTurnStatus = z.infer<typeof ProviderTurnStatus>;

/**
 * E10: normalized handle of a native turn; `nativeTurnRef` is null for providers with only
 * ordinals. Beyond SPEC: `error` and `usage` reported when the turn ends.
 */
export const ProviderTurn = z.object({
  id: ProviderTurnId,
  providerThreadId: ProviderThreadId,
  nodeId: NodeId,
  runAttemptId: RunAttemptId.nullable(),
  nativeTurnRef: NativeRef.nullable(),
  ordinal: z.number().int().positive(),
  status: ProviderTurnStatus,
  startedAt: IsoTimestamp.nullable(),
  completedAt: IsoTimestamp.nullable(),
  error: z.string().nullable(),
  usage: TokenUsage.nullable(),
});
export type ProviderTurn = z.infer<typeof ProviderTurn>;
