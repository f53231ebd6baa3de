import { z } from "zod";
import { RawLogRef } from "../entities/common.ts";
import { ConversationMessage } from "../entities/conversation-message.ts";
import { ExecutionNode } from "../entities/execution-node.ts";
import { PlanArtifact } from "../entities/plan-artifact.ts";
import { PlanItem, TurnItem, TurnItemContent } from "../entities/turn-item.ts";
import { NodeId } from "../ids.ts";
import { defineEvent } from "./define.ts";

export const ItemTerminalStatus = z.enum([
  "completed",
  "failed",
  "interrupted",
  "cancelled",
  "declined",
]);
export type ItemTerminalStatus = z.infer<typeof ItemTerminalStatus>;

/** A node started; `item` is null for nodes hidden from turnItems (subagent children). */
export const ItemStarted = defineEvent("ItemStarted", {
  node: ExecutionNode,
  message: ConversationMessage.nullable(),
  item: TurnItem.nullable(),
  /** B8: the raw provider frame the event came from; the store indexes it. */
  rawEventId: RawLogRef.optional(),
});
/** Streamed text appended to a message/reasoning text or a command's output. */
export const ItemDeltaAppended = defineEvent("ItemDeltaAppended", {
  nodeId: NodeId,
  delta: z.string(),
  rawEventId: RawLogRef.optional(),
});
export const ItemCompleted = defineEvent("ItemCompleted", {
  nodeId: NodeId,
  status: ItemTerminalStatus,
  content: TurnItemContent.nullable(),
  rawEventId: RawLogRef.optional(),
});
/** `node`/`item` are set when this update created them; later updates reuse the same item. */
export const PlanUpdated = defineEvent("PlanUpdated", {
  plan: PlanArtifact,
  node: ExecutionNode.nullable(),
  item: PlanItem.nullable(),
  rawEventId: RawLogRef.optional(),
});
