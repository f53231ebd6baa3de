import { RunId } from "../ids.ts";
import { UserText } from "../inputs/text.ts";
import { defineEvent } from "./define.ts";

/** B20: the waiting run's message (and its user_message item) now reads `text`. */
export const QueuedMessageEdited = defineEvent("QueuedMessageEdited", {
  runId: RunId,
  text: UserText,
});
/** B20: the waiting runs start in this order; their ordinals follow it. */
export const QueueReordered = defineEvent("QueueReordered", {
  runIds: RunId.array(),
});
