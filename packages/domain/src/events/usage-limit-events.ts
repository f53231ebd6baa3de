import { IsoTimestamp, ProviderKind } from "../entities/common.ts";
import { RunId, ThreadId } from "../ids.ts";
import { defineEvent } from "./define.ts";

/**
 * Issue 32: the run failed at its provider's usage limit after Skein's own retries. `resetsAt`
 * is the command's time plus the wait the provider asked for (null: it named none). The thread's
 * queue stays as it is and waits with the limit.
 */
export const UsageLimitReached = defineEvent("UsageLimitReached", {
  threadId: ThreadId,
  runId: RunId,
  provider: ProviderKind,
  resetsAt: IsoTimestamp.nullable(),
});
/** Issue 32: Skein queued the limited run again by itself (the thread's setting is `wait`). */
export const UsageLimitResumed = defineEvent("UsageLimitResumed", { runId: RunId });
