export { buildHandoff } from "./build-handoff.ts";
export { describeCoverage, isCaughtUp, type ProviderThreadCoverage } from "./coverage.ts";
export type { BriefFact, BriefFile, BriefSection, HandoffBrief } from "./brief/index.ts";
export type { NetDiff, NetFileDiff } from "./brief/net-diff.ts";
export { HandoffInputError } from "./handoff-content.ts";
export {
  answerHistory,
  HISTORY_ANSWER_TOKENS,
  HISTORY_TOOL,
  HISTORY_TOOL_NAME,
  type HistoryCall,
  HistoryCallError,
  type HistoryCoverage,
  parseHistoryCall,
} from "./history/index.ts";
export { handoffKindOf } from "./handoff-plan.ts";
export type {
  BuildHandoffInput,
  HandoffBuild,
  HandoffCheckpointSummary,
  HandoffCommand,
  HandoffFileChange,
  HandoffFileTotal,
  HandoffPayload,
  HandoffRunEntry,
  HandoffTransfer,
} from "./handoff-types.ts";
export type {
  Checkpoint,
  CheckpointId,
  CheckpointStatus,
  ContextHandoff,
  ContextHandoffId,
  ContextHandoffKind,
  ContextHandoffStatus,
  ContextHandoffStrategy,
  ContextSourcePoint,
  ContextTransfer,
  ContextTransferId,
  ContextTransferStatus,
  ContextTransferType,
  NodeId,
  ProviderKind,
  ProviderThread,
  ProviderThreadId,
  ProviderThreadStatus,
  Run,
  RunId,
  RunStatus,
  ThreadId,
  TransferCapabilities,
  TurnItem,
  TurnItemId,
  TurnItemType,
} from "./inputs.ts";
export { formatRanges, type OrdinalRange, span, toRanges } from "./ordinal-ranges.ts";
export type {
  ContinueTarget,
  ExistingTransferRef,
  HandoffPlan,
  NativeForkSource,
  PortableReason,
  ProviderThreadFailureReason,
  ResolveStartContextInput,
  StartContextResolution,
  StartNewTarget,
  TransferDraft,
  TransferRef,
  UnsupportedReason,
} from "./resolution-types.ts";
export {
  checkProviderSummary,
  type ProviderSummaryCheck,
  providerSummaryPrompt,
  providerSummaryText,
} from "./provider-summary.ts";
export { resolveStartContext } from "./resolve-start-context.ts";
export { buildSubagentResult } from "./subagent-result.ts";
export {
  countedRunsOf,
  historySegments,
  isCountedRun,
  type LocatedPoint,
  locatePoint,
  type PointLookup,
  type RunSegment,
} from "./run-history.ts";
export { DEFAULT_MAX_HANDOFFS_PER_PROVIDER_THREAD } from "./target-plan.ts";
export {
  DEFAULT_CHARS_PER_TOKEN,
  DEFAULT_MAX_TOKENS,
  estimateTokens,
  MIN_MAX_TOKENS,
  type TokenBudget,
} from "./token-budget.ts";
export * as runStart from "./run-start/index.ts";
export {
  buildPlannedHandoff,
  type CodeStateRequest,
  codeStateRequests,
  gatherTransferInputs,
  manualPreviewOf,
  planPreview,
  previewMismatch,
  previewOf,
  startContextHistory,
  type TransferInputs,
} from "./run-start/index.ts";
