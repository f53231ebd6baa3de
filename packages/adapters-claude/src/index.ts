export {
  APP_TOOL_SERVER,
  type AppToolInvocation,
  type AppToolInvoker,
  appToolModelName,
  appToolNameOf,
  appToolServerConfig,
} from "./app-tool-server.ts";
export { AsyncChannel } from "./async-channel.ts";
export { CLAUDE_CAPABILITIES } from "./capabilities.ts";
export { createClaudeAdapter } from "./claude-adapter.ts";
export { ClaudeProviderSession } from "./claude-provider-session.ts";
export {
  ClaudeRuntime,
  type ClaudeRuntimeOptions,
  type ClaudeSessionSettings,
} from "./claude-runtime.ts";
export {
  ClaudeSession,
  type ClaudeSessionEnd,
  ClaudeSessionEndedError,
  type ClaudeSessionOptions,
  type ClaudeSessionState,
} from "./claude-session.ts";
export { ClaudeTurn, type SdkEnvelope } from "./claude-turn.ts";
export { type ClaudeSessionStart, startOptions } from "./session-start.ts";
export { buildChildEnv, type ClaudeConfig, runningAsRoot } from "./config.ts";
export { DeltaCoalescer } from "./delta-coalescer.ts";
export { claudeVersion, resolveClaudeExecutable } from "./executable.ts";
export {
  decisionFor,
  type PendingPermission,
  PermissionBroker,
  type PermissionHandler,
  type ToolPermissionDecision,
  type ToolPermissionRequest,
  toPermissionResult,
} from "./permissions.ts";
export {
  createProcessTracker,
  type ProcessExit,
  type ProcessTracker,
  type TrackedProcess,
} from "./process-tracker.ts";
export {
  createMemoryRawEventSink,
  createRawLogger,
  type MemoryRawEventSink,
  type RawEventSink,
  type RawFrame,
  type RawLogger,
  sdkMessageMethod,
} from "./raw-log.ts";
export { itemKindForTool, requestKindForTool } from "./tool-kinds.ts";
export {
  cutEntryInTranscript,
  historyFromTranscript,
  readTranscriptHistory,
} from "./transcript-history.ts";
export { claudeConfigDir, transcriptExists, transcriptPath } from "./transcripts.ts";
export { TurnCuts } from "./turn-cuts.ts";
export { TurnEventMapper } from "./turn-event-mapper.ts";
export {
  type ClaudeTurnOutcome,
  type ClaudeTurnStatus,
  classifyResult,
} from "./turn-outcome.ts";
