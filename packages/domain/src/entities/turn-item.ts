import { z } from "zod";
import {
  CheckpointId,
  ContextHandoffId,
  ContextTransferId,
  MessageId,
  NodeId,
  PlanId,
  ProviderThreadId,
  ProviderTurnId,
  RunId,
  RuntimeRequestId,
  ThreadId,
  TurnItemId,
} from "../ids.ts";
import { CheckpointFileSummary } from "./checkpoint.ts";
import { Attachment, IsoTimestamp, NativeRef, ProviderKind, RawFrames } from "./common.ts";
import { ContextHandoffStrategy, CoveredRunOrdinals } from "./context-handoff.ts";
import { ContextSourcePoint } from "./context-source-point.ts";
import { PlanKind, PlanStatus, PlanStep } from "./plan-artifact.ts";
import { RequestDecision, RuntimeRequestKind } from "./runtime-request.ts";

export const TurnItemStatus = z.enum([
  "pending",
  "running",
  "completed",
  "failed",
  "interrupted",
  "cancelled",
  "declined",
]);
export type TurnItemStatus = z.infer<typeof TurnItemStatus>;

export const COMPACTION_RUNNING_TITLE = "Compacting context...";
export const COMPACTION_COMPLETED_TITLE = "Compacted context";
export const FORK_ITEM_TITLE = "Forked from conversation";

/**
 * Fields every item keeps so a debug view can jump from the display stream back to the graph and
 * provider logs (P6). `provider` is set on items tied to a run, so mixed-provider threads show.
 */
const TurnItemBase = z.object({
  id: TurnItemId,
  threadId: ThreadId,
  runId: RunId.nullable(),
  runOrdinal: z.number().int().positive().nullable(),
  nodeId: NodeId.nullable(),
  providerTurnId: ProviderTurnId.nullable(),
  nativeItemRef: NativeRef.nullable(),
  provider: ProviderKind.nullable(),
  status: TurnItemStatus,
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
  /** B8: the raw provider frames this item came from (absent where none were logged). */
  rawFrames: RawFrames.optional(),
});

// Variant payloads a provider runtime can report (StartItem / CompleteItem content).
const assistantMessageContent = { type: z.literal("assistant_message"), text: z.string() };
const reasoningContent = { type: z.literal("reasoning"), text: z.string() };
const fileChangeContent = {
  type: z.literal("file_change"),
  fileName: z.string().min(1),
  additions: z.number().int().nonnegative().optional(),
  deletions: z.number().int().nonnegative().optional(),
  diffStr: z.string().optional(),
  oldStr: z.string().optional(),
  newStr: z.string().optional(),
};
const commandExecutionContent = {
  type: z.literal("command_execution"),
  input: z.string(),
  output: z.string().optional(),
  exitCode: z.number().int().optional(),
};
const fileSearchContent = {
  type: z.literal("file_search"),
  query: z.string(),
  /** B16: what the tool did: read one file, search for a pattern, or list a folder. */
  action: z.enum(["read", "search", "list"]).optional(),
  matches: z.array(z.string()).optional(),
};
const webSearchContent = {
  type: z.literal("web_search"),
  query: z.string(),
  results: z.array(z.object({ title: z.string(), url: z.string() })).optional(),
};
const dynamicToolContent = {
  type: z.literal("dynamic_tool"),
  toolName: z.string().nullable(),
  input: z.unknown(),
  output: z.unknown().optional(),
};
const compactionContent = {
  type: z.literal("compaction"),
  /**
   * Issue 25 item 5: where Skein wrote the compaction itself (a provider without native
   * compaction), the provider handoff whose current handoff (E13, reviewable and editable) holds
   * the text the thread's next run is seeded with.
   */
  transferId: ContextTransferId.optional(),
};

/** What a runtime event can say about an item; app-owned ids and titles are added by decide. */
export const TurnItemContent = z.discriminatedUnion("type", [
  z.object(assistantMessageContent),
  z.object(reasoningContent),
  z.object(fileChangeContent),
  z.object(commandExecutionContent),
  z.object(fileSearchContent),
  z.object(webSearchContent),
  z.object(dynamicToolContent),
  z.object(compactionContent),
]);
export type TurnItemContent = z.infer<typeof TurnItemContent>;
export type TurnItemContentType = TurnItemContent["type"];

export const UserMessageItem = TurnItemBase.extend({
  type: z.literal("user_message"),
  messageId: MessageId,
  text: z.string(),
  attachments: z.array(Attachment),
});
export const AssistantMessageItem = TurnItemBase.extend({
  ...assistantMessageContent,
  messageId: MessageId,
});
export const ReasoningItem = TurnItemBase.extend(reasoningContent);
export const PlanItem = TurnItemBase.extend({
  type: z.literal("plan"),
  planId: PlanId,
  kind: PlanKind,
  planStatus: PlanStatus,
  markdown: z.string().optional(),
  steps: z.array(PlanStep).optional(),
});
export const FileChangeItem = TurnItemBase.extend(fileChangeContent);
export const CommandExecutionItem = TurnItemBase.extend(commandExecutionContent);
export const FileSearchItem = TurnItemBase.extend(fileSearchContent);
export const WebSearchItem = TurnItemBase.extend(webSearchContent);
export const ApprovalRequestItem = TurnItemBase.extend({
  type: z.literal("approval_request"),
  requestId: RuntimeRequestId,
  requestKind: RuntimeRequestKind,
  title: z.string(),
  detail: z.string().nullable(),
  decision: RequestDecision.nullable(),
});
export const CheckpointItem = TurnItemBase.extend({
  type: z.literal("checkpoint"),
  checkpointId: CheckpointId,
  /** `captured` after a run, `restored` when the thread was rolled back to it. */
  action: z.enum(["captured", "restored"]),
  appRunOrdinal: z.number().int().positive().nullable(),
  files: z.array(CheckpointFileSummary),
});
/** Same item goes running ("Compacting context...") → completed ("Compacted context"). */
export const CompactionItem = TurnItemBase.extend({ ...compactionContent, title: z.string() });
export const HandoffItem = TurnItemBase.extend({
  type: z.literal("handoff"),
  handoffId: ContextHandoffId,
  transferId: ContextTransferId,
  strategy: ContextHandoffStrategy,
  fromProviderThreadIds: z.array(ProviderThreadId),
  toProviderThreadId: ProviderThreadId,
  coveredRunOrdinals: CoveredRunOrdinals,
});
export const ForkItem = TurnItemBase.extend({
  type: z.literal("fork"),
  transferId: ContextTransferId,
  sourceThreadId: ThreadId,
  sourcePoint: ContextSourcePoint,
  relationship: z.enum(["fork", "subagent"]),
  title: z.string(),
});
export const DynamicToolItem = TurnItemBase.extend(dynamicToolContent);
/** B17: what happened in git and on the thread's pull request, in the conversation's order. */
export const GitItem = TurnItemBase.extend({
  type: z.literal("git"),
  action: z.enum([
    "committed",
    "pushed",
    "pr_opened",
    "pr_state",
    "check",
    "review_comment",
    "review",
    "pr_merged",
    "code_brought_back",
  ]),
  title: z.string(),
  detail: z.string().nullable(),
  url: z.string().nullable(),
  /**
   * The commit, or the PR fact's key (`comment:<id>`, `check:<id>:…`): what feedback points at;
   * for `code_brought_back`, the checkpoint that undoes it.
   */
  ref: z.string().nullable(),
});

/** P6: the backend-ordered display list; the UI never merges entities itself. */
export const TurnItem = z.discriminatedUnion("type", [
  UserMessageItem,
  AssistantMessageItem,
  ReasoningItem,
  PlanItem,
  FileChangeItem,
  CommandExecutionItem,
  FileSearchItem,
  WebSearchItem,
  ApprovalRequestItem,
  CheckpointItem,
  CompactionItem,
  HandoffItem,
  ForkItem,
  DynamicToolItem,
  GitItem,
]);
export type TurnItem = z.infer<typeof TurnItem>;
export type TurnItemType = TurnItem["type"];
export type TurnItemOf<T extends TurnItemType> = Extract<TurnItem, { type: T }>;
