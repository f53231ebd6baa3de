// Public surface of @skein/domain. The provider capability interface is exported separately
// from "@skein/domain/provider" (src/provider/index.ts).

// Ids, metadata, errors
export {
  asId,
  CheckpointId,
  CheckpointScopeId,
  CommandId,
  ContextHandoffId,
  ContextTransferId,
  createSequentialIds,
  ID_PREFIXES,
  type IdKind,
  type IdOf,
  type IdSource,
  MessageId,
  NodeId,
  PlanId,
  ProjectId,
  ProviderSessionId,
  ProviderThreadId,
  ProviderTurnId,
  RunId,
  RuntimeRequestId,
  ThreadId,
  TurnItemId,
} from "./ids.ts";
export type { CommandMeta, DecideContext } from "./meta.ts";
export {
  CapabilityUnsupportedError,
  ConflictError,
  type DomainError,
  type DomainErrorCode,
  formatZodError,
  InvalidTransitionError,
  isDomainError,
  MergeConflictError,
  NotFoundError,
  PreconditionFailedError,
  ValidationError,
  type ValidationIssue,
  zodIssues,
} from "./errors.ts";

// Input rules (B4): also available from "@skein/domain/inputs".
export {
  AnswersInput,
  NameText,
  nameProblem,
  UserText,
  WorkspacePath,
  workspacePathProblem,
} from "./inputs/index.ts";

// Entities (E1–E18, P6)
export { AppThread, WorkspaceSetup } from "./entities/app-thread.ts";
export {
  OnUsageLimit,
  ThreadUsageLimit,
  UsageLimitHit,
  type UsageLimitPlan,
  usageLimitPlan,
  usageLimitStands,
} from "./entities/usage-limit.ts";
export { Checkpoint, NetChange, RollbackScope } from "./entities/checkpoint.ts";
export { PullRequestFact, ThreadPullRequest } from "./entities/pull-request.ts";
export {
  Attachment,
  InteractionMode,
  ReasoningEffort,
  NativeRef,
  RawFrames,
  ProviderKind,
  RuntimeMode,
  TokenUsage,
  addTokenUsage,
} from "./entities/common.ts";
export { ContextHandoff, ContextHandoffKind, HandoffPayload } from "./entities/context-handoff.ts";
export { ContextSourcePoint } from "./entities/context-source-point.ts";
export { ContextTransfer } from "./entities/context-transfer.ts";
export { ExecutionNode, ExecutionNodeKind } from "./entities/execution-node.ts";
export { ForkInheritance } from "./entities/fork-inheritance.ts";
export { PlanArtifact, UserInputQuestion } from "./entities/plan-artifact.ts";
export {
  HandoffWriter,
  PortRange,
  Project,
  ProjectSettings,
  ProjectSettingsPatch,
  projectSettingsOf,
  ThreadWorkspaceMode,
} from "./entities/project.ts";
export { ProviderCapabilities, ProviderSession } from "./entities/provider-session.ts";
export { ProviderThread } from "./entities/provider-thread.ts";
export { ProviderTurn } from "./entities/provider-turn.ts";
export { Run, RunProgress, RunStatus } from "./entities/run.ts";
export { RunAttempt } from "./entities/run-attempt.ts";
export { RequestAnswers, RequestDecision, RuntimeRequest } from "./entities/runtime-request.ts";
export {
  TurnItem,
  TurnItemContent,
  TurnItemStatus,
  type TurnItemType,
} from "./entities/turn-item.ts";

// Status transitions

// Commands and events
export {
  Command,
  commandStreamId,
  projectStreamId,
  SessionCommand,
  sessionStreamId,
  ThreadCommand,
  threadStreamId,
} from "./commands.ts";
export { ForkSourcePointSpec } from "./commands/thread-lifecycle-commands.ts";
export { DomainEvent, type EventData } from "./events.ts";
export type { StoredEvent } from "./events/stored-event.ts";
export { DEFAULT_THREAD_TITLE } from "./thread/auto-title.ts";

// Decider
export {
  type AggregateState,
  aggregateKindOfStream,
  decide,
  evolve,
  initialStateFor,
} from "./decide.ts";
export type { ProjectState, SessionState } from "./state/project-state.ts";
export { initialThreadState, nextQueuedRun, type ThreadState } from "./state/thread-state.ts";
export { adoptedThreadTitle } from "./thread/adopt.ts";
export { forkTitle, runOffsetOf, subagentTitle } from "./thread/fork-title.ts";
export { latestStablePoint, resolveForkPoint } from "./thread/fork-point.ts";
export {
  FanOutTarget,
  FanOutTargets,
  MAX_FAN_OUT,
  type OverlapWarning,
  overlapWarnings,
} from "./thread/fan-out.ts";
export { currentHandoffOf } from "./thread/handoff-previews.ts";
export { requireHandoffChangeable } from "./thread/handoffs.ts";

// Projections and read models
export { type ExecutionGraph, assembleExecutionGraph } from "./projections/execution-graph.ts";
export {
  assemblePendingRequests,
  type PendingRequestView,
} from "./projections/pending-requests.ts";
export { projectEvent } from "./projections/project-event.ts";
export {
  lastWritePerRow,
  PROJECTION_TABLES,
  type ProjectionRow,
  type ProjectionTable,
  type ProjectionWrite,
} from "./projections/projection-write.ts";
export { assembleProviderSessions } from "./projections/provider-sessions.ts";
export { turnsThrough } from "./projections/run-number.ts";
export {
  type LoggedEvent,
  type RebuiltRow,
  type RowKey,
  rebuildRows,
  type StreamFold,
  continueStreamFold,
  copyStreamFold,
  newStreamFold,
  STREAM_FOLD_VERSION,
} from "./projections/rebuild.ts";
export {
  compactStateWithKeys,
  restoreCompactState,
  serializeCompactState,
} from "./state/compact-state.ts";
export { HistoryNeeded } from "./state/partial-map.ts";
export { restoreState, STATE_SNAPSHOT_VERSION, serializeState } from "./state/state-snapshot.ts";
export {
  assembleThreadDetail,
  type ThreadDetail,
  visibleItemsOf,
} from "./projections/thread-detail.ts";
export type { ThreadShell } from "./projections/thread-shell.ts";
export { assembleThreadShells } from "./projections/thread-shells.ts";
export {
  collectInheritedTurnItems,
  type InheritanceSource,
  isInheritedRow,
} from "./projections/visible-turn-items.ts";

// Provider capability interface: also available from "@skein/domain/provider".
export {
  type PlannedStream,
  planThreadImport,
  THREAD_EXPORT_FORMAT,
  ThreadExportDocument,
} from "./export/thread-export.ts";
