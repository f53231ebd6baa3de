import type { SDKMessage, SDKResultMessage } from "@anthropic-ai/claude-agent-sdk";
import type { ProviderFailure } from "@skein/domain/provider";

export type ClaudeTurnStatus = "completed" | "interrupted" | "failed";

export type ClaudeTurnOutcome = {
  status: ClaudeTurnStatus;
  /** Human-readable failure text (API error message, process exit), else null. */
  error: string | null;
  /** B2: a failed turn's cause as read from the CLI's error kind and words; else null. */
  failure?: ProviderFailure | null;
  /** The `result` message, or null when the turn ended without one (process death, close). */
  result: SDKResultMessage | null;
  /** Uuid of the turn's last main-thread assistant message: the turn's native ref (E10). */
  lastAssistantUuid: string | null;
  /**
   * Uuid of the turn's last main-thread transcript entry (assistant or user/tool_result). This is
   * what `resumeSessionAt` must name to keep the turn whole when it ended on a tool result.
   */
  lastEntryUuid: string | null;
};

const INTERRUPTED_REASONS = new Set(["aborted_streaming", "aborted_tools"]);

/**
 * Reads a `result` message. API errors arrive as `subtype: "success"` with `is_error: true` and
 * the error text in `result`; execution errors (including interrupts) as `error_*` subtypes.
 */
export function classifyResult(
  result: SDKResultMessage,
  interruptRequested: boolean,
): { status: ClaudeTurnStatus; error: string | null } {
  if (!result.is_error) return { status: "completed", error: null };
  const reason = result.terminal_reason;
  if ((reason !== undefined && INTERRUPTED_REASONS.has(reason)) || interruptRequested) {
    return { status: "interrupted", error: null };
  }
  if (result.subtype === "success") return { status: "failed", error: result.result || "error" };
  const text = result.errors.filter((e) => !e.startsWith("[ede_diagnostic]")).join("\n");
  return { status: "failed", error: text || result.subtype };
}

export function isResultMessage(message: SDKMessage): message is SDKResultMessage {
  return message.type === "result";
}

/** The uuids the CLI echoes back for the user messages a turn consumed. */
export function consumedUserUuids(message: SDKMessage): string[] {
  if (!("user_message_uuids" in message)) return [];
  const value: unknown = message.user_message_uuids;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * Main-thread transcript entries (not subagent traffic, not stream events or system notices, not
 * the synthetic assistant message that carries an API error: it is never sent to the model, so a
 * turn that only has one has nothing worth keeping).
 */
export function mainThreadEntryUuid(message: SDKMessage): string | null {
  if (message.type !== "assistant" && message.type !== "user") return null;
  if (message.parent_tool_use_id !== null) return null;
  if (message.type === "assistant" && message.error !== undefined) return null;
  return typeof message.uuid === "string" ? message.uuid : null;
}

/**
 * A `command_lifecycle` message (missing from the SDK's `SDKMessage` union): where a user
 * message sent with a uuid is in the CLI's queue (`queued`, `started`, `completed`, `cancelled`).
 */
export function commandLifecycle(message: SDKMessage): { uuid: string; state: string } | null {
  const raw = message as { type: string; command_uuid?: unknown; state?: unknown };
  if (raw.type !== "command_lifecycle") return null;
  if (typeof raw.command_uuid !== "string" || typeof raw.state !== "string") return null;
  return { uuid: raw.command_uuid, state: raw.state };
}
