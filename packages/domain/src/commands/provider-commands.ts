import { z } from "zod";
import { NativeRef, RawLogRef, TokenUsage } from "../entities/common.ts";
import { ProviderKind } from "../entities/common.ts";
import { UsageLimitHit } from "../entities/usage-limit.ts";
import { ProviderThreadForkSource, ProviderThreadStatus } from "../entities/provider-thread.ts";
import {
  ContextHandoffId,
  NodeId,
  ProviderSessionId,
  ProviderThreadId,
  ProviderTurnId,
  RunId,
  ThreadId,
} from "../ids.ts";
import { defineCommand } from "./define.ts";

export const RecordProviderThread = defineCommand("RecordProviderThread", {
  threadId: ThreadId,
  providerThreadId: ProviderThreadId,
  provider: ProviderKind,
  providerSessionId: ProviderSessionId.nullable().optional(),
  /** Set for provider threads nested under a node (native subagents); else bound to the thread. */
  ownerNodeId: NodeId.optional(),
  /** With `ownerNodeId`: the child app thread following that sub-agent (T9). */
  childThreadId: ThreadId.optional(),
  nativeThreadRef: NativeRef.nullable().optional(),
  nativeConversationHeadRef: NativeRef.nullable().optional(),
  status: ProviderThreadStatus.optional(),
  forkedFrom: ProviderThreadForkSource.nullable().optional(),
});

export const UpdateProviderThread = defineCommand("UpdateProviderThread", {
  threadId: ThreadId,
  providerThreadId: ProviderThreadId,
  status: ProviderThreadStatus.optional(),
  providerSessionId: ProviderSessionId.nullable().optional(),
  nativeThreadRef: NativeRef.nullable().optional(),
  nativeConversationHeadRef: NativeRef.nullable().optional(),
  firstRunOrdinal: z.number().int().positive().optional(),
  lastRunOrdinal: z.number().int().positive().optional(),
  addHandoffIds: z.array(ContextHandoffId).optional(),
  /** A nested sub-agent thread is followed by another child thread (its last one was promoted). */
  childThreadId: ThreadId.optional(),
});

export const StartProviderTurn = defineCommand("StartProviderTurn", {
  threadId: ThreadId,
  runId: RunId,
  providerTurnId: ProviderTurnId,
  nativeTurnRef: NativeRef.nullable().optional(),
});

export const CompleteProviderTurn = defineCommand("CompleteProviderTurn", {
  threadId: ThreadId,
  providerTurnId: ProviderTurnId,
  status: z.enum(["completed", "interrupted", "failed"]),
  error: z.string().min(1).nullable().optional(),
  usage: TokenUsage.nullable().optional(),
  /** B8: the provider's frame that ended the turn (`turn/completed`, Claude's result). */
  rawEventId: RawLogRef.optional(),
  /** Issue 32: a failed turn ended at its provider's usage limit (see UsageLimitReached). */
  usageLimit: UsageLimitHit.optional(),
});

/**
 * B8: the provider's frame that started a turn (`turn/started`, Claude's first message), kept as
 * the start of the turn's root node's frames; recorded once the turn is, as the frame arrives.
 */
export const RecordProviderTurnFrame = defineCommand("RecordProviderTurnFrame", {
  threadId: ThreadId,
  providerTurnId: ProviderTurnId,
  rawEventId: RawLogRef,
});
