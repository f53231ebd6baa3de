import type { ThreadCommand } from "../commands.ts";
import { type DecideResult, guarded } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { CommandMeta, DecideContext } from "../meta.ts";
import { assertNever } from "../assert-never.ts";
import type { ThreadState } from "../state/thread-state.ts";
import {
  markCheckpointMissing,
  recordCheckpoint,
  recordCheckpointScope,
  rollbackThread,
} from "./checkpoints.ts";
import { bindHandoff, previewHandoff, supersedeHandoff } from "./handoff-previews.ts";
import { editHandoff, recordHandoff, regenerateHandoff } from "./handoffs.ts";
import { adoptThread } from "./adopt.ts";
import { recordCodeBroughtBack } from "./code-brought-back.ts";
import { deleteThread, purgeThread } from "./delete.ts";
import {
  recordGitCommit,
  recordGitPush,
  recordPullRequest,
  recordPullRequestFacts,
  recordPullRequestFeedback,
  recordPullRequestMerged,
} from "./git.ts";
import { appendItemDelta, completeItem, startItem, updatePlan } from "./items.ts";
import {
  archiveThread,
  createThread,
  forkThread,
  promoteThread,
  unarchiveThread,
  updateThreadSettings,
} from "./lifecycle.ts";
import {
  completeProviderTurn,
  recordProviderTurnFrame,
  recordProviderThread,
  startProviderTurn,
  updateProviderThread,
} from "./provider.ts";
import { openRuntimeRequest, resolveRuntimeRequest, withdrawRuntimeRequest } from "./requests.ts";
import { cancelQueuedRun, editQueuedMessage, reorderQueue } from "./queue.ts";
import { failRun, interruptRun, queueRun, retryRun, startRun } from "./runs.ts";
import { noteRunProgress } from "./run-progress.ts";
import { recoverInterruptedRun, restartAttempt, steerRun } from "./steering.ts";
import {
  consumeContextTransfer,
  createContextTransfer,
  failContextTransfer,
  fallbackToPortable,
  resolveContextTransfer,
  supersedeContextTransfer,
} from "./transfers.ts";
import { resumeAfterUsageLimit } from "./usage-limit.ts";

function route(
  c: ThreadCommand,
  s: ThreadState,
  m: CommandMeta,
  ctx: DecideContext,
): ThreadEvent[] {
  switch (c.type) {
    case "CreateThread":
      return createThread(c.data, s, m, ctx);
    case "AdoptThread":
      return adoptThread(c.data, s, m, ctx);
    case "ForkThread":
      return forkThread(c.data, s, m, ctx);
    case "UpdateThreadSettings":
      return updateThreadSettings(c.data, s, m);
    case "ArchiveThread":
      return archiveThread(c.data, s, m);
    case "UnarchiveThread":
      return unarchiveThread(c.data, s, m);
    case "DeleteThread":
      return deleteThread(c.data, s, m);
    case "PurgeThread":
      return purgeThread(c.data, s, m);
    case "PromoteThread":
      return promoteThread(c.data, s, m);
    case "QueueRun":
      return queueRun(c.data, s, m, ctx);
    case "StartRun":
      return startRun(c.data, s, m);
    case "CancelQueuedRun":
      return cancelQueuedRun(c.data, s, m);
    case "EditQueuedMessage":
      return editQueuedMessage(c.data, s, m);
    case "ReorderQueue":
      return reorderQueue(c.data, s, m);
    case "RetryRun":
      return retryRun(c.data, s, m);
    case "InterruptRun":
      return interruptRun(c.data, s, m);
    case "NoteRunProgress":
      return noteRunProgress(c.data, s, m);
    case "FailRun":
      return failRun(c.data, s, m);
    case "SteerRun":
      return steerRun(c.data, s, m);
    case "RestartAttempt":
      return restartAttempt(c.data, s, m);
    case "RecoverInterruptedRun":
      return recoverInterruptedRun(c.data, s, m);
    case "RecordProviderThread":
      return recordProviderThread(c.data, s, m);
    case "UpdateProviderThread":
      return updateProviderThread(c.data, s, m);
    case "StartProviderTurn":
      return startProviderTurn(c.data, s, m);
    case "RecordProviderTurnFrame":
      return recordProviderTurnFrame(c.data, s, m);
    case "CompleteProviderTurn":
      return completeProviderTurn(c.data, s, m);
    case "StartItem":
      return startItem(c.data, s, m);
    case "AppendItemDelta":
      return appendItemDelta(c.data, s, m);
    case "CompleteItem":
      return completeItem(c.data, s, m);
    case "UpdatePlan":
      return updatePlan(c.data, s, m);
    case "OpenRuntimeRequest":
      return openRuntimeRequest(c.data, s, m);
    case "ResolveRuntimeRequest":
      return resolveRuntimeRequest(c.data, s, m);
    case "WithdrawRuntimeRequest":
      return withdrawRuntimeRequest(c.data, s, m);
    case "CreateContextTransfer":
      return createContextTransfer(c.data, s, m);
    case "ResolveContextTransfer":
      return resolveContextTransfer(c.data, s, m);
    case "FallbackToPortable":
      return fallbackToPortable(c.data, s, m);
    case "FailContextTransfer":
      return failContextTransfer(c.data, s, m);
    case "ConsumeContextTransfer":
      return consumeContextTransfer(c.data, s, m);
    case "SupersedeContextTransfer":
      return supersedeContextTransfer(c.data, s, m);
    case "RecordHandoff":
      return recordHandoff(c.data, s, m);
    case "RegenerateHandoff":
      return regenerateHandoff(c.data, s, m);
    case "EditHandoff":
      return editHandoff(c.data, s, m);
    case "PreviewHandoff":
      return previewHandoff(c.data, s, m);
    case "BindHandoff":
      return bindHandoff(c.data, s, m);
    case "SupersedeHandoff":
      return supersedeHandoff(c.data, s, m);
    case "RecordCheckpointScope":
      return recordCheckpointScope(c.data, s, m);
    case "RecordCheckpoint":
      return recordCheckpoint(c.data, s, m);
    case "MarkCheckpointMissing":
      return markCheckpointMissing(c.data, s, m);
    case "RollbackThread":
      return rollbackThread(c.data, s, m);
    case "RecordGitCommit":
      return recordGitCommit(c.data, s, m);
    case "RecordGitPush":
      return recordGitPush(c.data, s, m);
    case "RecordPullRequest":
      return recordPullRequest(c.data, s, m);
    case "RecordPullRequestFacts":
      return recordPullRequestFacts(c.data, s, m);
    case "RecordPullRequestFeedback":
      return recordPullRequestFeedback(c.data, s, m);
    case "RecordPullRequestMerged":
      return recordPullRequestMerged(c.data, s, m);
    case "RecordCodeBroughtBack":
      return recordCodeBroughtBack(c.data, s, m, ctx);
    case "ResumeAfterUsageLimit":
      return resumeAfterUsageLimit(c.data, s, m);
    default:
      return assertNever(c);
  }
}

/**
 * Decides a thread command against the thread's current state. Pure: reads `state` (and the
 * context's other threads) without changing them; a rejected command emits nothing.
 */
export function decideThread(
  command: ThreadCommand,
  state: ThreadState,
  meta: CommandMeta,
  context: DecideContext = {},
): DecideResult<ThreadEvent> {
  return guarded(() => route(command, state, meta, context));
}
