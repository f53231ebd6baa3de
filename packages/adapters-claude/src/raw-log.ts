import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import type { RawEventSink, RawFrame } from "@skein/domain/provider";

export type { RawEventSink, RawFrame };

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
  incoming(message: SDKMessage): string;
  outgoing(method: string, payload: unknown, jsonRpcId?: string | null): string;
  controlRequest(method: string, requestId: string, payload: unknown): string;
  controlResponse(method: string, requestId: string, payload: unknown): string;
  error(method: string, payload: unknown): string;
};

export function createRawLogger(sink: RawEventSink, providerSessionId: string): RawLogger {
  const record = (frame: Omit<RawFrame, "provider" | "providerSessionId">) =>
    sink.record({ provider: "claude", providerSessionId, ...frame });
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

export type MemoryRawEventSink = RawEventSink & {
  readonly frames: Array<RawFrame & { rawEventId: string }>;
};

/** Keeps frames in memory (tests, short-lived tools); the real sink writes rotating files. */
export function createMemoryRawEventSink(): MemoryRawEventSink {
  const frames: Array<RawFrame & { rawEventId: string }> = [];
  return {
    frames,
    record(frame) {
      const rawEventId = `mem:${frames.length + 1}`;
      frames.push({ ...frame, rawEventId });
      return rawEventId;
    },
  };
}
