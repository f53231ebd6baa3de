import { RunId, ThreadId } from "../ids.ts";
import { defineCommand } from "./define.ts";

/**
 * Issue 32: Skein's own resume of a run its usage limit failed, once the limit reset. Only while
 * that limit stands (a second resume, or one after the person retried, is refused), ahead of the
 * messages the limit held.
 */
export const ResumeAfterUsageLimit = defineCommand("ResumeAfterUsageLimit", {
  threadId: ThreadId,
  runId: RunId,
});
