import type {
  RuntimeEvent,
  RuntimeFileChange,
  RuntimeQuestion,
  RuntimeRequestAnswer,
  RuntimeRequestKind,
} from "@skein/domain/provider";
import type { GrantedPermissionProfile, ToolRequestUserInputResponse } from "../protocol/index.ts";
import type { IncomingServerRequest } from "../rpc/server-requests.ts";
import { legacyPatchChanges } from "./file-change-diff.ts";

type RequestOpened = Extract<RuntimeEvent, { type: "request.opened" }>;

/** The changes a started fileChange item carries, by item id (what its approval is about). */
export type ItemChanges = (itemRef: string) => readonly RuntimeFileChange[] | undefined;

/** Which E15 kind a Codex callback is; null for callbacks handled without the user. */
export function requestKind(request: IncomingServerRequest): RuntimeRequestKind | null {
  switch (request.method) {
    case "item/commandExecution/requestApproval":
    case "execCommandApproval":
      return "command";
    case "item/fileChange/requestApproval":
    case "applyPatchApproval":
      return "file-change";
    case "item/tool/requestUserInput":
    case "mcpServer/elicitation/request":
      return "user_input";
    case "item/permissions/requestApproval":
      return "command";
    case "account/chatgptAuthTokens/refresh":
      return "auth_refresh";
    case "item/tool/call":
      // App-owned tool calls are answered by the orchestrator's tool handler, not a person.
      return null;
    case "attestation/generate":
      return null;
  }
}

/**
 * The `request.opened` event for a Codex callback that needs an answer from the app. A
 * file-change approval names only its item: the paths and diffs come from that item's
 * `item/started` (`itemChanges`), which Codex sends first (B16).
 */
export function requestOpenedEvent(
  request: IncomingServerRequest,
  requestRef: string,
  kind: RuntimeRequestKind,
  itemChanges: ItemChanges = () => undefined,
): RequestOpened {
  const base = { type: "request.opened" as const, requestRef, kind };
  const raw = request.rawEventId === null ? {} : { rawEventId: request.rawEventId };
  switch (request.method) {
    case "item/commandExecution/requestApproval": {
      const p = request.params;
      const command = p.command ?? p.commandActions?.map((a) => a.command).join(" && ") ?? "";
      return {
        ...base,
        ...raw,
        itemRef: p.itemId,
        summary: p.reason ?? `Run ${command}`,
        command,
        ...(p.cwd ? { cwd: p.cwd } : {}),
      };
    }
    case "item/fileChange/requestApproval": {
      const p = request.params;
      const changes = itemChanges(p.itemId);
      return {
        ...base,
        ...raw,
        itemRef: p.itemId,
        summary: p.reason ?? "Apply file changes",
        ...(changes?.length ? { changes: [...changes] } : {}),
      };
    }
    case "applyPatchApproval": {
      const p = request.params;
      const changes = legacyPatchChanges(p.fileChanges);
      return {
        ...base,
        ...raw,
        itemRef: p.callId,
        summary: p.reason ?? "Apply file changes",
        ...(changes.length ? { changes } : {}),
      };
    }
    case "item/tool/requestUserInput": {
      const p = request.params;
      const questions: RuntimeQuestion[] = p.questions.map((q) => ({
        id: q.id,
        header: q.header,
        question: q.question,
        ...(q.options
          ? { options: q.options.map((o) => ({ label: o.label, description: o.description })) }
          : {}),
      }));
      return {
        ...base,
        ...raw,
        itemRef: p.itemId,
        summary: questions.map((q) => q.question).join(" / "),
        questions,
      };
    }
    case "item/permissions/requestApproval": {
      const p = request.params;
      return {
        ...base,
        ...raw,
        itemRef: p.itemId,
        summary: p.reason ?? "Grant additional permissions",
        cwd: p.cwd,
      };
    }
    case "mcpServer/elicitation/request": {
      const p = request.params;
      const summary = "message" in p ? p.message : p.title;
      return { ...base, ...raw, itemRef: null, summary: `${p.serverName}: ${summary}` };
    }
    default:
      return { ...base, ...raw, itemRef: null, summary: request.method };
  }
}

/**
 * Sends the app's answer in the shape the callback's method expects. Returns false when the
 * request is no longer pending (answered, withdrawn by Codex, or its process died).
 */
export function answerRequest(
  request: IncomingServerRequest,
  answer: RuntimeRequestAnswer,
): boolean {
  const approve = answer.decision === "accept" || answer.decision === "accept_for_session";
  switch (request.method) {
    case "item/commandExecution/requestApproval":
      return request.respond({ decision: simpleDecision(answer) });
    case "item/fileChange/requestApproval":
      return request.respond({ decision: simpleDecision(answer) });
    case "item/tool/requestUserInput":
      return request.respond(userInputAnswer(answer));
    case "mcpServer/elicitation/request":
      return request.respond({
        action: approve ? "accept" : answer.decision === "cancel" ? "cancel" : "decline",
        content: approve && answer.answers ? answer.answers : null,
        _meta: null,
      });
    case "execCommandApproval":
    case "applyPatchApproval":
      return request.respond({
        decision: approve
          ? answer.decision === "accept"
            ? "approved"
            : "approved_for_session"
          : answer.decision === "cancel"
            ? "abort"
            : { denied: { rejection: "declined in Skein" } },
      });
    case "item/permissions/requestApproval":
      // Granting means echoing the requested profile back for this turn; a refusal grants nothing.
      return request.respond({
        permissions: approve ? grantRequested(request.params.permissions) : {},
        scope: answer.decision === "accept_for_session" ? "session" : "turn",
      });
    default:
      return request.fail(`Skein cannot answer ${request.method} with a user decision`);
  }
}

/** The decision vocabulary shared by command and file-change approvals. */
function simpleDecision(
  answer: RuntimeRequestAnswer,
): "accept" | "acceptForSession" | "decline" | "cancel" {
  switch (answer.decision) {
    case "accept":
      return "accept";
    case "accept_for_session":
      return "acceptForSession";
    case "decline":
      return "decline";
    case "cancel":
      return "cancel";
  }
}

function userInputAnswer(answer: RuntimeRequestAnswer): ToolRequestUserInputResponse {
  const answers: ToolRequestUserInputResponse["answers"] = {};
  for (const [id, text] of Object.entries(answer.answers ?? {})) answers[id] = { answers: [text] };
  return { answers };
}

function grantRequested(requested: {
  network: GrantedPermissionProfile["network"] | null;
  fileSystem: GrantedPermissionProfile["fileSystem"] | null;
}): GrantedPermissionProfile {
  const granted: GrantedPermissionProfile = {};
  if (requested.network) granted.network = requested.network;
  if (requested.fileSystem) granted.fileSystem = requested.fileSystem;
  return granted;
}
