import { z } from "zod";
import { UserText } from "../inputs/text.ts";
import { RunId, ThreadId } from "../ids.ts";
import { defineCommand } from "./define.ts";

/** B20: a queued message's new text, until its run starts (CONFLICT after). */
export const EditQueuedMessage = defineCommand("EditQueuedMessage", {
  threadId: ThreadId,
  runId: RunId,
  text: UserText,
});

/**
 * B20: the waiting messages in the order they should start. `runIds` names every run still
 * waiting to start, each once; a queue that changed meanwhile is CONFLICT (read it again).
 */
export const ReorderQueue = defineCommand("ReorderQueue", {
  threadId: ThreadId,
  runIds: z.array(RunId).min(1).max(1_000),
});
