/**
 * Method → payload tables over the generated bindings. The generated unions carry each method's
 * params but not its result, so results are paired here with the generated `…Response` types.
 */
import type { ClientRequest } from "./generated/ClientRequest.ts";
import type { InitializeResponse } from "./generated/InitializeResponse.ts";
import type { ApplyPatchApprovalResponse } from "./generated/ApplyPatchApprovalResponse.ts";
import type { ExecCommandApprovalResponse } from "./generated/ExecCommandApprovalResponse.ts";
import type { ServerNotification } from "./generated/ServerNotification.ts";
import type { ServerRequest } from "./generated/ServerRequest.ts";
import type * as v2 from "./generated/v2/index.ts";

/** Results of the client requests Skein sends. Add a method here before calling it. */
export type ClientResultMap = {
  initialize: InitializeResponse;
  "thread/start": v2.ThreadStartResponse;
  "thread/resume": v2.ThreadResumeResponse;
  "thread/fork": v2.ThreadForkResponse;
  "thread/revert": v2.ThreadRevertResponse;
  "thread/read": v2.ThreadReadResponse;
  "thread/list": v2.ThreadListResponse;
  "thread/turns/list": v2.ThreadTurnsListResponse;
  "thread/archive": v2.ThreadArchiveResponse;
  "thread/unsubscribe": v2.ThreadUnsubscribeResponse;
  "thread/loaded/list": v2.ThreadLoadedListResponse;
  "thread/compact/start": v2.ThreadCompactStartResponse;
  "turn/start": v2.TurnStartResponse;
  "turn/steer": v2.TurnSteerResponse;
  "turn/interrupt": v2.TurnInterruptResponse;
  "model/list": v2.ModelListResponse;
  "config/read": v2.ConfigReadResponse;
  "account/read": v2.GetAccountResponse;
};

export type ClientMethod = keyof ClientResultMap;
/** `never` for a method the pinned binary does not know, which makes the call fail to compile. */
export type ClientParams<M extends ClientMethod> = Extract<ClientRequest, { method: M }>["params"];
export type ClientResult<M extends ClientMethod> = ClientResultMap[M];

type ServerRequestResultTable = {
  "item/commandExecution/requestApproval": v2.CommandExecutionRequestApprovalResponse;
  "item/fileChange/requestApproval": v2.FileChangeRequestApprovalResponse;
  "item/tool/requestUserInput": v2.ToolRequestUserInputResponse;
  "mcpServer/elicitation/request": v2.McpServerElicitationRequestResponse;
  "item/permissions/requestApproval": v2.PermissionsRequestApprovalResponse;
  "item/tool/call": v2.DynamicToolCallResponse;
  "account/chatgptAuthTokens/refresh": v2.ChatgptAuthTokensRefreshResponse;
  "attestation/generate": v2.AttestationGenerateResponse;
  applyPatchApproval: ApplyPatchApprovalResponse;
  execCommandApproval: ExecCommandApprovalResponse;
};

/** Resolves to `never` (breaking every use) if a regenerated binary adds a server request. */
export type ServerRequestResultMap = ServerRequest["method"] extends keyof ServerRequestResultTable
  ? ServerRequestResultTable
  : never;

export type ServerRequestMethod = ServerRequest["method"];
export type ServerRequestOf<M extends ServerRequestMethod> = Extract<ServerRequest, { method: M }>;
export type ServerRequestResult<M extends ServerRequestMethod> = ServerRequestResultMap[M];

export type NotificationMethod = ServerNotification["method"];
export type NotificationOf<M extends NotificationMethod> = Extract<
  ServerNotification,
  { method: M }
>;
