import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { bindRawLog } from "@skein/adapter-kit";
import type { RawEventSink } from "@skein/domain/provider";

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/**
 * A short, greppable name for an SDK message in the raw log: `assistant`, `system/init`,
 * `result/success`, `stream_event/content_block_delta`.
 */
export function sdkMessageMethod(message: SDKMessage): string {
  const type = String(field(message, "type"));
  const subtype = field(message, "subtype");
  if (typeof subtype === "string") return `${type}/${subtype}`;
  const eventType = field(field(message, "event"), "type");
  if (typeof eventType === "string") return `${type}/${eventType}`;
  return type;
}

/** Binds a sink to one provider session so callers only pass what varies per frame. */
export type RawLogger = {
  incoming(message: SDKMessage): string | undefined;
  outgoing(method: string, payload: unknown, jsonRpcId?: string | null): string | undefined;
  controlRequest(method: string, requestId: string, payload: unknown): string | undefined;
  controlResponse(method: string, requestId: string, payload: unknown): string | undefined;
  error(method: string, payload: unknown): string | undefined;
};

export function createRawLogger(
  sink: RawEventSink | undefined,
  providerSessionId: string,
): RawLogger {
  const record = bindRawLog(sink, "claude", providerSessionId);
  return {
    incoming: (message) =>
      record({
        direction: "incoming",
        messageKind: "notification",
        method: sdkMessageMethod(message),
        jsonRpcId: null,
        payload: message,
      }),
    outgoing: (method, payload, jsonRpcId = null) =>
      record({ direction: "outgoing", messageKind: "request", method, jsonRpcId, payload }),
    controlRequest: (method, requestId, payload) =>
      record({
        direction: "incoming",
        messageKind: "request",
        method,
        jsonRpcId: requestId,
        payload,
      }),
    controlResponse: (method, requestId, payload) =>
      record({
        direction: "outgoing",
        messageKind: "response",
        method,
        jsonRpcId: requestId,
        payload,
      }),
    error: (method, payload) =>
      record({ direction: "incoming", messageKind: "error", method, jsonRpcId: null, payload }),
  };
}
