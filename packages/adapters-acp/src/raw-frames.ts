import type { AnyMessage } from "@agentclientprotocol/sdk";
import type { SessionFrame } from "@skein/adapter-kit";

/** One JSON-RPC message as a raw-log frame (E18). */
export function frameOf(message: AnyMessage, direction: "incoming" | "outgoing"): SessionFrame {
  const m = message as { id?: string | number | null; method?: string; error?: unknown };
  const hasId = m.id !== undefined && m.id !== null;
  const messageKind =
    m.method !== undefined
      ? hasId
        ? "request"
        : "notification"
      : m.error !== undefined
        ? "error"
        : "response";
  return {
    direction,
    messageKind,
    method: m.method ?? null,
    jsonRpcId: hasId ? (m.id as string | number) : null,
    payload: message,
  };
}
