import type { RequestId } from "../protocol/index.ts";

export type RpcErrorBody = { code: number; message: string; data?: unknown };

/** One incoming line, classified by JSON-RPC shape (Codex omits the `"jsonrpc"` field). */
export type IncomingFrame =
  | { kind: "response"; id: RequestId; result: unknown }
  | { kind: "error"; id: RequestId | null; error: RpcErrorBody }
  | { kind: "notification"; method: string; params: unknown }
  | { kind: "request"; id: RequestId; method: string; params: unknown }
  | { kind: "invalid"; reason: string };

export function parseFrame(line: string): { frame: IncomingFrame; payload: unknown } {
  let payload: unknown;
  try {
    payload = JSON.parse(line);
  } catch {
    return { frame: { kind: "invalid", reason: "not JSON" }, payload: line };
  }
  return { frame: classifyFrame(payload), payload };
}

export function classifyFrame(value: unknown): IncomingFrame {
  if (!isRecord(value)) return { kind: "invalid", reason: "not an object" };
  const id = value.id;
  const hasId = typeof id === "string" || typeof id === "number";
  if (typeof value.method === "string") {
    return hasId
      ? { kind: "request", id, method: value.method, params: value.params }
      : { kind: "notification", method: value.method, params: value.params };
  }
  if (isRecord(value.error)) {
    return { kind: "error", id: hasId ? id : null, error: errorBody(value.error) };
  }
  if (hasId && "result" in value) return { kind: "response", id, result: value.result };
  return { kind: "invalid", reason: "neither request, response nor notification" };
}

function errorBody(error: Record<string, unknown>): RpcErrorBody {
  const body: RpcErrorBody = {
    code: typeof error.code === "number" ? error.code : -32603,
    message: typeof error.message === "string" ? error.message : "unknown error",
  };
  if ("data" in error) body.data = error.data;
  return body;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
