export { buildHandoff } from "./build-handoff.ts";
export type { NetDiff } from "./brief/net-diff.ts";
export {
  answerHistory,
  HISTORY_ANSWER_TOKENS,
  HISTORY_TOOL,
  HistoryCallError,
  parseHistoryCall,
} from "./history/index.ts";
export type { HandoffBuild } from "./handoff-types.ts";
export type { TransferCapabilities } from "./inputs.ts";
export {
  checkProviderSummary,
  providerSummaryPrompt,
  providerSummaryText,
} from "./provider-summary.ts";
export { resolveStartContext } from "./resolve-start-context.ts";
export { buildSubagentResult } from "./subagent-result.ts";
export type { RunSegment } from "./run-history.ts";
export { estimateTokens } from "./token-budget.ts";
export * as runStart from "./run-start/index.ts";
export {
  buildPlannedHandoff,
  codeStateRequests,
  gatherTransferInputs,
  planPreview,
  previewOf,
  startContextHistory,
  type TransferInputs,
} from "./run-start/index.ts";
