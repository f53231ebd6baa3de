import { z } from "zod";
import { MessageId, NodeId, RunId, ThreadId } from "../ids.ts";
import { Attachment, IsoTimestamp } from "./common.ts";

export const MessageRole = z.enum(["user", "assistant", "system"]);
export type MessageRole = z.infer<typeof MessageRole>;

/** E16: built from provider content/delta events; child/subagent messages stay in the graph. */
export const ConversationMessage = z.object({
  id: MessageId,
  threadId: ThreadId,
  runId: RunId.nullable(),
  nodeId: NodeId.nullable(),
  role: MessageRole,
  text: z.string(),
  attachments: z.array(Attachment),
  streaming: z.boolean(),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});
export type ConversationMessage = z.infer<typeof ConversationMessage>;
