/**
 * The typed face of the generated app-server bindings (`scripts/generate-protocol.sh`). Code
 * outside `protocol/` imports wire shapes from here, never from `generated/` directly, so a
 * regeneration that renames something breaks in one place.
 */
export type { ClientInfo } from "./generated/ClientInfo.ts";
export type { ClientNotification } from "./generated/ClientNotification.ts";
export type { ClientRequest } from "./generated/ClientRequest.ts";
export type { InitializeParams } from "./generated/InitializeParams.ts";
export type { InitializeResponse } from "./generated/InitializeResponse.ts";
export type { RequestId } from "./generated/RequestId.ts";
export type { ServerNotification } from "./generated/ServerNotification.ts";
export type { ServerRequest } from "./generated/ServerRequest.ts";
export type { JsonValue } from "./generated/serde_json/JsonValue.ts";
export type {
  AgentMessageDeltaNotification,
  AskForApproval,
  CommandExecutionApprovalDecision,
  CommandExecutionOutputDeltaNotification,
  CommandExecutionRequestApprovalParams,
  CommandExecutionRequestApprovalResponse,
  DynamicToolCallParams,
  DynamicToolCallResponse,
  DynamicToolSpec,
  ErrorNotification,
  FileChangeApprovalDecision,
  FileChangeRequestApprovalParams,
  FileChangeRequestApprovalResponse,
  GrantedPermissionProfile,
  ItemCompletedNotification,
  ItemStartedNotification,
  SandboxMode,
  SandboxPolicy,
  ServerRequestResolvedNotification,
  ModelListResponse,
  Thread,
  ThreadForkParams,
  ThreadForkResponse,
  ThreadHistoryMode,
  ThreadItem,
  ThreadListParams,
  ThreadListResponse,
  ThreadReadParams,
  ThreadReadResponse,
  ThreadResumeParams,
  ThreadResumeResponse,
  ThreadRevertParams,
  ThreadRevertResponse,
  ThreadStartParams,
  ThreadStartResponse,
  ThreadStatus,
  ThreadTokenUsageUpdatedNotification,
  ThreadTurnsListParams,
  ThreadTurnsListResponse,
  ToolRequestUserInputParams,
  ToolRequestUserInputResponse,
  Turn,
  TurnCompletedNotification,
  TurnError,
  TurnInterruptParams,
  TurnPlanUpdatedNotification,
  TurnStartedNotification,
  TurnStartParams,
  TurnStartResponse,
  TurnStatus,
  TurnSteerParams,
  TurnSteerResponse,
  UserInput,
} from "./generated/v2/index.ts";
export type {
  ClientMethod,
  ClientParams,
  ClientResult,
  ClientResultMap,
  NotificationMethod,
  NotificationOf,
  ServerRequestMethod,
  ServerRequestOf,
  ServerRequestResult,
  ServerRequestResultMap,
} from "./methods.ts";
export type { CollaborationMode } from "./generated/CollaborationMode.ts";
