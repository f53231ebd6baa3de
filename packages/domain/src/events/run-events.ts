import { z } from "zod";
import { ConversationMessage } from "../entities/conversation-message.ts";
import { ExecutionNode } from "../entities/execution-node.ts";
import { Run, RunProgress } from "../entities/run.ts";
import { RunAttempt } from "../entities/run-attempt.ts";
import { UserMessageItem } from "../entities/turn-item.ts";
import { ContextHandoffId, RunAttemptId, RunId } from "../ids.ts";
import { defineEvent } from "./define.ts";

/** The run waits in the queue; its user message and user_message item exist from now on. */
export const RunQueued = defineEvent("RunQueued", {
  run: Run,
  message: ConversationMessage,
  item: UserMessageItem,
});
/** Run → starting, first attempt pending, root_turn node pending. */
export const RunStarted = defineEvent("RunStarted", {
  runId: RunId,
  attempt: RunAttempt,
  rootNode: ExecutionNode,
  contextHandoffId: ContextHandoffId.nullable(),
});
/** The latest interrupted/failed run waits in the queue again; its error is cleared (E4 retry). */
export const RunRetryQueued = defineEvent("RunRetryQueued", { runId: RunId });
export const RunCancelled = defineEvent("RunCancelled", { runId: RunId });
/** The provider was asked to stop; the run ends when its turn reports the outcome. */
export const RunInterruptRequested = defineEvent("RunInterruptRequested", { runId: RunId });
/** B15: the running run's live notice changed (null: cleared). */
export const RunProgressNoted = defineEvent("RunProgressNoted", {
  runId: RunId,
  progress: RunProgress.nullable(),
});
/** The run reached its end; the active attempt and root node end with it if still open. */
export const RunFinished = defineEvent("RunFinished", {
  runId: RunId,
  status: z.enum(["completed", "interrupted", "failed"]),
  error: z.string().nullable(),
});
/** Native steer: the text joins the running turn as a user message of the same run (R1). */
export const RunSteered = defineEvent("RunSteered", {
  runId: RunId,
  message: ConversationMessage,
  item: UserMessageItem,
});
/** App-level steering/retry: the old attempt is superseded, a new one starts under the same run. */
export const AttemptRestarted = defineEvent("AttemptRestarted", {
  runId: RunId,
  previousAttemptId: RunAttemptId,
  attempt: RunAttempt,
  rootNode: ExecutionNode,
  message: ConversationMessage.nullable(),
  item: UserMessageItem.nullable(),
});
/** R2: the runtime is gone; everything in flight for the run ends explicitly. */
export const RunRecovered = defineEvent("RunRecovered", {
  runId: RunId,
  reason: z.string().min(1),
});
