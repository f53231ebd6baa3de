import { z } from "zod";
import { NativeRef, RawLogRef, TokenUsage } from "../entities/common.ts";
import { ProviderThread, ProviderThreadStatus } from "../entities/provider-thread.ts";
import { ProviderTurn } from "../entities/provider-turn.ts";
import {
  ContextHandoffId,
  ProviderSessionId,
  ProviderThreadId,
  ProviderTurnId,
  RunId,
  ThreadId,
} from "../ids.ts";
import { defineEvent } from "./define.ts";

export const ProviderThreadPatch = z.object({
  status: ProviderThreadStatus.optional(),
  providerSessionId: ProviderSessionId.nullable().optional(),
  nativeThreadRef: NativeRef.nullable().optional(),
  nativeConversationHeadRef: NativeRef.nullable().optional(),
  firstRunOrdinal: z.number().int().positive().nullable().optional(),
  lastRunOrdinal: z.number().int().positive().nullable().optional(),
  handoffIds: z.array(ContextHandoffId).optional(),
  childThreadId: ThreadId.nullable().optional(),
});
export type ProviderThreadPatch = z.infer<typeof ProviderThreadPatch>;

export const ProviderThreadRecorded = defineEvent("ProviderThreadRecorded", {
  providerThread: ProviderThread,
});
export const ProviderThreadUpdated = defineEvent("ProviderThreadUpdated", {
  providerThreadId: ProviderThreadId,
  changes: ProviderThreadPatch,
});
/** Turn running; its attempt, root node and run become running. */
export const ProviderTurnStarted = defineEvent("ProviderTurnStarted", {
  runId: RunId,
  providerTurn: ProviderTurn,
});
/** Turn terminal; its attempt and root node end with it and the provider thread's coverage grows. */
export const ProviderTurnCompleted = defineEvent("ProviderTurnCompleted", {
  providerTurnId: ProviderTurnId,
  status: z.enum(["completed", "interrupted", "failed"]),
  error: z.string().nullable(),
  usage: TokenUsage.nullable(),
  rawEventId: RawLogRef.optional(),
});
/** B8: a frame of the turn itself (its start): the turn's root node's frames begin there. */
export const ProviderTurnFrameRecorded = defineEvent("ProviderTurnFrameRecorded", {
  providerTurnId: ProviderTurnId,
  rawEventId: RawLogRef,
});
