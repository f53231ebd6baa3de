import { assertNever } from "../assert-never.ts";
import type { ThreadEvent } from "../events.ts";
import {
  onCheckpointMarkedMissing,
  onCheckpointRecorded,
  onCheckpointScopeRecorded,
  onThreadRolledBack,
} from "./evolve/checkpoints.ts";
import {
  onCodeBroughtBack,
  onGitCommitted,
  onGitPushed,
  onPullRequestFactRecorded,
  onPullRequestFeedbackSent,
  onPullRequestMerged,
  onPullRequestOpened,
} from "./evolve/git.ts";
import {
  onItemCompleted,
  onItemDeltaAppended,
  onItemStarted,
  onPlanUpdated,
} from "./evolve/items.ts";
import {
  onThreadArchived,
  onThreadDeleted,
  onThreadPurged,
  onThreadCreated,
  onThreadForked,
  onThreadSettingsUpdated,
  onThreadPromoted,
  onThreadUnarchived,
} from "./evolve/lifecycle.ts";
import {
  onProviderThreadRecorded,
  onProviderThreadUpdated,
  onProviderTurnCompleted,
  onProviderTurnFrameRecorded,
  onProviderTurnStarted,
} from "./evolve/provider.ts";
import {
  onRuntimeRequestOpened,
  onRuntimeRequestResolved,
  onRuntimeRequestWithdrawn,
} from "./evolve/requests.ts";
import { onQueuedMessageEdited, onQueueReordered } from "./evolve/queue.ts";
import { onUsageLimitReached, onUsageLimitResumed } from "./evolve/usage-limit.ts";
import {
  onAttemptRestarted,
  onRunCancelled,
  onRunFinished,
  onRunInterruptRequested,
  onRunProgressNoted,
  onRunQueued,
  onRunRecovered,
  onRunRetryQueued,
  onRunStarted,
  onRunSteered,
} from "./evolve/runs.ts";
import {
  onContextTransferConsumed,
  onContextTransferCreated,
  onContextTransferFailed,
  onContextTransferFellBack,
  onContextTransferResolved,
  onContextTransferSuperseded,
  onHandoffBound,
  onHandoffRecorded,
  onHandoffReplaced,
  onHandoffSuperseded,
} from "./evolve/transfers.ts";
import type { ThreadState } from "./thread-state.ts";

/**
 * Applies one committed event. Mutates `state` in place and returns it (see ThreadState): O(1)
 * amortized per event, independent of how many runs/items the thread already holds.
 */
export function evolveThread(state: ThreadState, event: ThreadEvent): ThreadState {
  state.changed.clear();
  switch (event.type) {
    case "ThreadCreated":
      onThreadCreated(state, event.data);
      break;
    case "ThreadForked":
      onThreadForked(state, event.data);
      break;
    case "ThreadSettingsUpdated":
      onThreadSettingsUpdated(state, event.data);
      break;
    case "ThreadArchived":
      onThreadArchived(state, event.data);
      break;
    case "ThreadDeleted":
      onThreadDeleted(state, event.data);
      break;
    case "ThreadPurged":
      onThreadPurged(state, event.data);
      break;
    case "ThreadUnarchived":
      onThreadUnarchived(state, event.data);
      break;
    case "ThreadPromoted":
      onThreadPromoted(state, event.data);
      break;
    case "RunQueued":
      onRunQueued(state, event.data);
      break;
    case "RunStarted":
      onRunStarted(state, event.data);
      break;
    case "RunCancelled":
      onRunCancelled(state, event.data);
      break;
    case "QueuedMessageEdited":
      onQueuedMessageEdited(state, event.data);
      break;
    case "QueueReordered":
      onQueueReordered(state, event.data);
      break;
    case "RunRetryQueued":
      onRunRetryQueued(state, event.data);
      break;
    case "RunInterruptRequested":
      onRunInterruptRequested(state, event.data);
      break;
    case "RunProgressNoted":
      onRunProgressNoted(state, event.data);
      break;
    case "RunFinished":
      onRunFinished(state, event.data);
      break;
    case "RunSteered":
      onRunSteered(state, event.data);
      break;
    case "AttemptRestarted":
      onAttemptRestarted(state, event.data);
      break;
    case "RunRecovered":
      onRunRecovered(state, event.data);
      break;
    case "ProviderThreadRecorded":
      onProviderThreadRecorded(state, event.data);
      break;
    case "ProviderThreadUpdated":
      onProviderThreadUpdated(state, event.data);
      break;
    case "ProviderTurnStarted":
      onProviderTurnStarted(state, event.data);
      break;
    case "ProviderTurnFrameRecorded":
      onProviderTurnFrameRecorded(state, event.data);
      break;
    case "ProviderTurnCompleted":
      onProviderTurnCompleted(state, event.data);
      break;
    case "ItemStarted":
      onItemStarted(state, event.data);
      break;
    case "ItemDeltaAppended":
      onItemDeltaAppended(state, event.data);
      break;
    case "ItemCompleted":
      onItemCompleted(state, event.data);
      break;
    case "PlanUpdated":
      onPlanUpdated(state, event.data);
      break;
    case "RuntimeRequestOpened":
      onRuntimeRequestOpened(state, event.data);
      break;
    case "RuntimeRequestResolved":
      onRuntimeRequestResolved(state, event.data);
      break;
    case "RuntimeRequestWithdrawn":
      onRuntimeRequestWithdrawn(state, event.data);
      break;
    case "ContextTransferCreated":
      onContextTransferCreated(state, event.data);
      break;
    case "ContextTransferResolved":
      onContextTransferResolved(state, event.data);
      break;
    case "ContextTransferFellBack":
      onContextTransferFellBack(state, event.data);
      break;
    case "ContextTransferFailed":
      onContextTransferFailed(state, event.data);
      break;
    case "ContextTransferConsumed":
      onContextTransferConsumed(state, event.data);
      break;
    case "ContextTransferSuperseded":
      onContextTransferSuperseded(state, event.data);
      break;
    case "HandoffRecorded":
      onHandoffRecorded(state, event.data);
      break;
    case "HandoffReplaced":
      onHandoffReplaced(state, event.data);
      break;
    case "HandoffBound":
      onHandoffBound(state, event.data);
      break;
    case "HandoffSuperseded":
      onHandoffSuperseded(state, event.data);
      break;
    case "CheckpointScopeRecorded":
      onCheckpointScopeRecorded(state, event.data);
      break;
    case "CheckpointRecorded":
      onCheckpointRecorded(state, event.data);
      break;
    case "CheckpointMarkedMissing":
      onCheckpointMarkedMissing(state, event.data);
      break;
    case "ThreadRolledBack":
      onThreadRolledBack(state, event.data);
      break;
    case "GitCommitted":
      onGitCommitted(state, event.data);
      break;
    case "GitPushed":
      onGitPushed(state, event.data);
      break;
    case "PullRequestOpened":
      onPullRequestOpened(state, event.data);
      break;
    case "PullRequestFactRecorded":
      onPullRequestFactRecorded(state, event.data);
      break;
    case "PullRequestFeedbackSent":
      onPullRequestFeedbackSent(state, event.data);
      break;
    case "PullRequestMerged":
      onPullRequestMerged(state, event.data);
      break;
    case "CodeBroughtBack":
      onCodeBroughtBack(state, event.data);
      break;
    case "UsageLimitReached":
      onUsageLimitReached(state, event.data);
      break;
    case "UsageLimitResumed":
      onUsageLimitResumed(state, event.data);
      break;
    default:
      assertNever(event);
  }
  return state;
}
