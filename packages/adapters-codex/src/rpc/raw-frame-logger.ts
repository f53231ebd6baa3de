import type { RequestId } from "../protocol/index.ts";
import type { IncomingFrame } from "./frames.ts";
import { bindRawLog, type SessionRawLog } from "@skein/adapter-kit";
import type { RawEventSink, RawFrame } from "./raw-event-sink.ts";

/** Turns JSON-RPC frames into raw-log records; every frame in both directions passes here. */
export class RawFrameLogger {
  private readonly log: SessionRawLog;

  constructor(sink: RawEventSink | undefined, providerSessionId: string) {
    this.log = bindRawLog(sink, "codex", providerSessionId);
  }

  outgoing(frame: { id?: RequestId; method?: string } & Record<string, unknown>): string | null {
    const kind: RawFrame["messageKind"] =
      frame.method !== undefined
        ? frame.id === undefined
          ? "notification"
          : "request"
        : "error" in frame
          ? "error"
          : "response";
    return this.record("outgoing", kind, frame.method ?? null, frame.id ?? null, frame);
  }

  incoming(frame: IncomingFrame, payload: unknown): string | null {
    switch (frame.kind) {
      case "response":
        return this.record("incoming", "response", null, frame.id, payload);
      case "error":
        return this.record("incoming", "error", null, frame.id, payload);
      case "notification":
        return this.record("incoming", "notification", frame.method, null, payload);
      case "request":
        return this.record("incoming", "request", frame.method, frame.id, payload);
      case "invalid":
        return this.record("incoming", "error", null, null, {
          invalidFrame: frame.reason,
          payload,
        });
    }
  }

  private record(
    direction: RawFrame["direction"],
    messageKind: RawFrame["messageKind"],
    method: string | null,
    jsonRpcId: RequestId | null,
    payload: unknown,
  ): string | null {
    return this.log({ direction, messageKind, method, jsonRpcId, payload }) ?? null;
  }
}
