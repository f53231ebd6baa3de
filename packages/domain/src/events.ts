import { z } from "zod";
import {
  CheckpointMarkedMissing,
  CheckpointRecorded,
  CheckpointScopeRecorded,
  ThreadRolledBack,
} from "./events/checkpoint-events.ts";
import {
  CodeBroughtBack,
  GitCommitted,
  GitPushed,
  PullRequestFactRecorded,
  PullRequestFeedbackSent,
  PullRequestMerged,
  PullRequestOpened,
} from "./events/git-events.ts";
import {
  ItemCompleted,
  ItemDeltaAppended,
  ItemStarted,
  PlanUpdated,
} from "./events/item-events.ts";
import {
  ProjectArchived,
  ProjectCreated,
  ProjectDeleted,
  ProjectRenamed,
  ProjectSettingsUpdated,
  ProviderSessionOpened,
  ProviderSessionStatusChanged,
} from "./events/project-events.ts";
import {
  ProviderThreadRecorded,
  ProviderThreadUpdated,
  ProviderTurnCompleted,
  ProviderTurnFrameRecorded,
  ProviderTurnStarted,
} from "./events/provider-events.ts";
import {
  RuntimeRequestOpened,
  RuntimeRequestResolved,
  RuntimeRequestWithdrawn,
} from "./events/request-events.ts";
import {
  AttemptRestarted,
  RunCancelled,
  RunRetryQueued,
  RunFinished,
  RunInterruptRequested,
  RunProgressNoted,
  RunQueued,
  RunRecovered,
  RunStarted,
  RunSteered,
} from "./events/run-events.ts";
import { QueuedMessageEdited, QueueReordered } from "./events/queue-events.ts";
import { UsageLimitReached, UsageLimitResumed } from "./events/usage-limit-events.ts";
import {
  ThreadArchived,
  ThreadCreated,
  ThreadDeleted,
  ThreadForked,
  ThreadPurged,
  ThreadSettingsUpdated,
  ThreadPromoted,
  ThreadUnarchived,
} from "./events/thread-lifecycle-events.ts";
import {
  ContextTransferConsumed,
  ContextTransferCreated,
  ContextTransferFailed,
  ContextTransferFellBack,
  ContextTransferResolved,
  ContextTransferSuperseded,
  HandoffBound,
  HandoffRecorded,
  HandoffReplaced,
  HandoffSuperseded,
} from "./events/transfer-events.ts";

/** Events of the `thread-<ThreadId>` stream. */
export const ThreadEvent = z.discriminatedUnion("type", [
  ThreadCreated,
  ThreadForked,
  ThreadSettingsUpdated,
  ThreadArchived,
  ThreadUnarchived,
  ThreadDeleted,
  ThreadPurged,
  ThreadPromoted,
  RunQueued,
  RunStarted,
  RunCancelled,
  QueuedMessageEdited,
  QueueReordered,
  RunRetryQueued,
  RunInterruptRequested,
  RunProgressNoted,
  RunFinished,
  RunSteered,
  AttemptRestarted,
  RunRecovered,
  ProviderThreadRecorded,
  ProviderThreadUpdated,
  ProviderTurnStarted,
  ProviderTurnFrameRecorded,
  ProviderTurnCompleted,
  ItemStarted,
  ItemDeltaAppended,
  ItemCompleted,
  PlanUpdated,
  RuntimeRequestOpened,
  RuntimeRequestResolved,
  RuntimeRequestWithdrawn,
  ContextTransferCreated,
  ContextTransferResolved,
  ContextTransferFellBack,
  ContextTransferFailed,
  ContextTransferConsumed,
  ContextTransferSuperseded,
  HandoffRecorded,
  HandoffReplaced,
  HandoffBound,
  HandoffSuperseded,
  CheckpointScopeRecorded,
  CheckpointRecorded,
  CheckpointMarkedMissing,
  ThreadRolledBack,
  GitCommitted,
  GitPushed,
  PullRequestOpened,
  PullRequestFactRecorded,
  PullRequestFeedbackSent,
  PullRequestMerged,
  CodeBroughtBack,
  UsageLimitReached,
  UsageLimitResumed,
]);
export type ThreadEvent = z.infer<typeof ThreadEvent>;

/** Events of the `project-<ProjectId>` stream. */
export const ProjectEvent = z.discriminatedUnion("type", [
  ProjectCreated,
  ProjectRenamed,
  ProjectSettingsUpdated,
  ProjectArchived,
  ProjectDeleted,
]);
export type ProjectEvent = z.infer<typeof ProjectEvent>;

/** Events of the `session-<ProviderSessionId>` stream. */
export const SessionEvent = z.discriminatedUnion("type", [
  ProviderSessionOpened,
  ProviderSessionStatusChanged,
]);
export type SessionEvent = z.infer<typeof SessionEvent>;

export const DomainEvent = z.discriminatedUnion("type", [
  ...ThreadEvent.options,
  ...ProjectEvent.options,
  ...SessionEvent.options,
]);
export type DomainEvent = z.infer<typeof DomainEvent>;
export type DomainEventType = DomainEvent["type"];
export type EventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;
export type EventData<T extends DomainEventType> = EventOf<T>["data"];

const THREAD_EVENT_TYPES = new Set<string>(ThreadEvent.options.map((o) => o.shape.type.value));
const PROJECT_EVENT_TYPES = new Set<string>(ProjectEvent.options.map((o) => o.shape.type.value));

export function isThreadEvent(event: DomainEvent): event is ThreadEvent {
  return THREAD_EVENT_TYPES.has(event.type);
}
export function isProjectEvent(event: DomainEvent): event is ProjectEvent {
  return PROJECT_EVENT_TYPES.has(event.type);
}
export function isSessionEvent(event: DomainEvent): event is SessionEvent {
  return !THREAD_EVENT_TYPES.has(event.type) && !PROJECT_EVENT_TYPES.has(event.type);
}
