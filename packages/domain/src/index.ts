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
  RawEventId,
  RunAttemptId,
  RunId,
  RuntimeRequestId,
  ThreadId,
  TurnItemId,
} from "./ids.ts";
export type { CommandMeta, DecideContext } from "./meta.ts";
export {
  CapabilityUnsupportedError,
  ConflictError,
  type DecideResult,
  type DomainError,
  type DomainErrorCode,
  formatZodError,
  InvalidTransitionError,
  isDomainError,
  MergeConflictError,
  NotFoundError,
  parseWith,
  PreconditionFailedError,
  type Result,
  ValidationError,
  type ValidationIssue,
  zodIssues,
} from "./errors.ts";

// Input rules (B4): also available from "@skein/domain/inputs".
export {
  AnswersInput,
  MAX_WORKSPACE_PATH_LENGTH,
  NameText,
  nameProblem,
  PathText,
  textProblem,
  UserText,
  WellFormedText,
  WorkspacePath,
  workspacePathProblem,
} from "./inputs/index.ts";

// Entities (E1–E18, P6)
export { AppThread, AppThreadLineage, WorkspaceSetup } from "./entities/app-thread.ts";
export {
  DEFAULT_ON_USAGE_LIMIT,
  DEFAULT_USAGE_LIMIT_WAIT_MS,
  MAX_AUTOMATIC_RESUMES,
  OnUsageLimit,
  ThreadUsageLimit,
  UsageLimitHit,
  type UsageLimitPlan,
  usageLimitPlan,
  usageLimitStands,
} from "./entities/usage-limit.ts";
export {
  Checkpoint,
  CheckpointFileSummary,
  CheckpointStatus,
  RollbackScope,
} from "./entities/checkpoint.ts";
export { CheckpointScope, CheckpointScopeKind } from "./entities/checkpoint-scope.ts";
export {
  GitCommitRecord,
  GitPushRecord,
  PullRequestCheck,
  PullRequestFact,
  ThreadPullRequest,
} from "./entities/pull-request.ts";
export {
  Attachment,
  InteractionMode,
  IsoTimestamp,
  ModelSelection,
  ReasoningEffort,
  NativeRef,
  RawFrames,
  RawLogRef,
  ProviderKind,
  RuntimeMode,
  TokenUsage,
  addTokenUsage,
} from "./entities/common.ts";
export {
  ContextHandoff,
  ContextHandoffKind,
  ContextHandoffStatus,
  ContextHandoffStrategy,
  CoveredRunOrdinals,
  HandoffAuthorship,
  HandoffBrief,
  HandoffPayload,
  HandoffRunSummary,
} from "./entities/context-handoff.ts";
export { ContextSourcePoint } from "./entities/context-source-point.ts";
export {
  ContextTransfer,
  ContextTransferResolution,
  ContextTransferStatus,
  ContextTransferType,
  TransferCreatedBy,
} from "./entities/context-transfer.ts";
export { ConversationMessage, MessageRole } from "./entities/conversation-message.ts";
export {
  ExecutionNode,
  ExecutionNodeKind,
  ExecutionNodeStatus,
  NativeRefStrength,
} from "./entities/execution-node.ts";
export { ForkInheritance } from "./entities/fork-inheritance.ts";
export {
  PlanArtifact,
  PlanKind,
  PlanStatus,
  PlanStep,
  UserInputQuestion,
} from "./entities/plan-artifact.ts";
export {
  CopyPattern,
  DEFAULT_PROJECT_SETTINGS,
  HandoffWriter,
  PortRange,
  Project,
  ProjectSettings,
  ProjectSettingsPatch,
  projectSettingsOf,
  ThreadWorkspaceMode,
} from "./entities/project.ts";
export {
  ProviderCapabilities,
  ProviderSession,
  ProviderSessionStatus,
} from "./entities/provider-session.ts";
export {
  ProviderThread,
  ProviderThreadForkSource,
  ProviderThreadStatus,
} from "./entities/provider-thread.ts";
export { ProviderTurn, ProviderTurnStatus } from "./entities/provider-turn.ts";
export { RawProviderEvent } from "./entities/raw-provider-event.ts";
export { ACTIVE_RUN_STATUSES, Run, RunProgress, RunStatus } from "./entities/run.ts";
export { RunAttempt, RunAttemptReason, RunAttemptStatus } from "./entities/run-attempt.ts";
export {
  RequestAnswers,
  RequestDecision,
  ResponseCapability,
  RuntimeRequest,
  RuntimeRequestKind,
  RuntimeRequestStatus,
} from "./entities/runtime-request.ts";
export {
  ApprovalRequestItem,
  AssistantMessageItem,
  CheckpointItem,
  COMPACTION_COMPLETED_TITLE,
  COMPACTION_RUNNING_TITLE,
  CommandExecutionItem,
  CompactionItem,
  DynamicToolItem,
  FileChangeItem,
  FileSearchItem,
  FORK_ITEM_TITLE,
  ForkItem,
  GitItem,
  HandoffItem,
  PlanItem,
  ReasoningItem,
  TurnItem,
  TurnItemContent,
  type TurnItemContentType,
  type TurnItemOf,
  TurnItemStatus,
  type TurnItemType,
  UserMessageItem,
  WebSearchItem,
} from "./entities/turn-item.ts";

// Status transitions
export {
  assertTransition,
  canTransition,
  checkTransition,
  type StatusOf,
  TRANSITIONS,
  type TransitionEntity,
} from "./transitions.ts";

// Commands and events
export {
  Command,
  type CommandData,
  type CommandOf,
  type CommandType,
  commandStreamId,
  isProjectCommand,
  isSessionCommand,
  isThreadCommand,
  parseCommand,
  ProjectCommand,
  projectStreamId,
  SessionCommand,
  sessionStreamId,
  ThreadCommand,
  threadStreamId,
} from "./commands.ts";
export { ForkSourcePointSpec } from "./commands/thread-lifecycle-commands.ts";
export {
  DomainEvent,
  type DomainEventType,
  type EventData,
  type EventOf,
  isProjectEvent,
  isSessionEvent,
  isThreadEvent,
  ProjectEvent,
  SessionEvent,
  ThreadEvent,
} from "./events.ts";
export { ItemTerminalStatus } from "./events/item-events.ts";
export type { StoredEvent } from "./events/stored-event.ts";
export { ProviderThreadPatch } from "./events/provider-events.ts";
export { ThreadSettingsPatch } from "./events/thread-lifecycle-events.ts";
export { autoTitle, DEFAULT_THREAD_TITLE } from "./thread/auto-title.ts";
export { waitingRuns } from "./thread/queue.ts";

// Decider
export {
  type AggregateKind,
  type AggregateState,
  aggregateKindOfStream,
  decide,
  evolve,
  initialStateFor,
  replay,
} from "./decide.ts";
export { decideProject } from "./project/decide-project.ts";
export { decideSession } from "./session/decide-session.ts";
export { evolveProject, evolveSession } from "./state/evolve-project.ts";
export { evolveThread } from "./state/evolve-thread.ts";
export {
  initialProjectState,
  initialSessionState,
  type ProjectState,
  type SessionState,
} from "./state/project-state.ts";
export { isSettledRun, isStableRun } from "./state/run-caches.ts";
export {
  findNodeByNativeItemRef,
  initialThreadState,
  itemForSubject,
  nextQueuedRun,
  runByOrdinal,
  type ThreadState,
  type TurnItemEntry,
} from "./state/thread-state.ts";
export { decideThread } from "./thread/decide-thread.ts";
export { adoptedThreadTitle } from "./thread/adopt.ts";
export { displayRunNumber, forkTitle, runOffsetOf, subagentTitle } from "./thread/fork-title.ts";
export { latestStablePoint, type ResolvedPoint, resolveForkPoint } from "./thread/fork-point.ts";
export {
  FanOutTarget,
  FanOutTargets,
  type ForkFiles,
  MAX_FAN_OUT,
  type OverlapWarning,
  overlapWarnings,
} from "./thread/fan-out.ts";
export { currentHandoffOf } from "./thread/handoff-previews.ts";
export { requireHandoffChangeable } from "./thread/handoffs.ts";

// Projections and read models
export {
  type ExecutionGraph,
  type GraphAttempt,
  type GraphNode,
  assembleExecutionGraph,
} from "./projections/execution-graph.ts";
export {
  assemblePendingRequests,
  type PendingRequestView,
} from "./projections/pending-requests.ts";
export { projectEvent, rowFor } from "./projections/project-event.ts";
export {
  PROJECTION_TABLES,
  type ProjectionPut,
  type ProjectionRow,
  type ProjectionTable,
  type ProjectionWrite,
} from "./projections/projection-write.ts";
export { assembleProviderSessions } from "./projections/provider-sessions.ts";
export {
  type ConversationCounts,
  type ConversationFlags,
  conversationCounts,
  countsForConversation,
  itemCountsForConversation,
} from "./projections/conversation-count.ts";
export {
  type AsideRange,
  conversationRunNumber,
  isAsideOrdinal,
  turnsThrough,
  withAsideOrdinal,
} from "./projections/run-number.ts";
export {
  applyWrites,
  type LoggedEvent,
  type RebuiltRow,
  type RowKey,
  type RowMap,
  rebuildRows,
  type StreamFold,
  continueStreamFold,
  copyStreamFold,
  newStreamFold,
  STREAM_FOLD_VERSION,
} from "./projections/rebuild.ts";
export {
  isCompactState,
  compactStateWithKeys,
  restoreCompactState,
  serializeCompactState,
} from "./state/compact-state.ts";
export { HistoryNeeded } from "./state/partial-map.ts";
export {
  restoreState,
  STATE_SNAPSHOT_VERSION,
  serializeState,
} from "./state/state-snapshot.ts";
export {
  assembleThreadDetail,
  type ThreadDetail,
  type ThreadDetailRows,
  visibleItemsOf,
} from "./projections/thread-detail.ts";
export type { DetailRun } from "./projections/thread-detail.ts";
export {
  shellStatusOf,
  type ThreadShell,
  type ThreadShellStatus,
  threadShellOf,
} from "./projections/thread-shell.ts";
export { assembleThreadShells } from "./projections/thread-shells.ts";
export {
  buildVisibleTurnItems,
  collectInheritedTurnItems,
  type InheritanceSource,
  isInheritedRow,
} from "./projections/visible-turn-items.ts";

// Provider capability interface: also available from "@skein/domain/provider".
export {
  type PlannedStream,
  planThreadImport,
  THREAD_EXPORT_FORMAT,
  THREAD_EXPORT_LIMITS,
  ThreadExportDocument,
  ThreadExportStream,
} from "./export/thread-export.ts";
