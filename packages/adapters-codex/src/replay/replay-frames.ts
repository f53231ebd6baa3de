import type { RawFrame, RuntimeEvent } from "@skein/domain/provider";
import { notificationThreadId, notificationTurnId } from "../mapping/notification-routing.ts";
import { requestKind, requestOpenedEvent } from "../mapping/request-mapping.ts";
import { TurnEventMapper } from "../mapping/turn-event-mapper.ts";
import type { NotificationEnvelope } from "../rpc/app-server-client.ts";
import type { IncomingServerRequest } from "../rpc/server-requests.ts";

/** A recorded raw-log record (E18), with the id it was logged under when known. */
export type ReplayFrame = Omit<RawFrame, "provider" | "providerSessionId"> & {
  provider?: string;
  providerSessionId?: string;
  rawEventId?: string;
};

type Turn = { mapper: TurnEventMapper; requests: Map<string, string> };

/**
 * Issue 18 (replay): recorded Codex app-server frames through the same mapping the live session
 * uses (`TurnEventMapper`, `requestOpenedEvent`), without a process: a turn opens at its
 * `turn/started`, notifications of its thread and turn feed it, approvals open as requests on it
 * and close on `serverRequest/resolved` (`answered` when the recording holds our answer).
 *
 * Deltas go out unmerged (the live session merges them in time windows, which a replay has not);
 * a request's ref is `replay:<json-rpc id>` (live: the process id instead of `replay`).
 */
export function replayCodexFrames(frames: readonly ReplayFrame[]): RuntimeEvent[] {
  const out: RuntimeEvent[] = [];
  const turns = new Map<string, Turn>();
  const answered = new Set<string>();
  const requestTurn = new Map<string, Turn>();
  frames.forEach((frame, index) => {
    const rawEventId = frame.rawEventId ?? `frame:${index + 1}`;
    const message = asRecord(frame.payload);
    if (frame.direction === "outgoing") {
      if (frame.messageKind === "response" && frame.jsonRpcId !== null) {
        answered.add(String(frame.jsonRpcId));
      }
      return;
    }
    if (frame.messageKind === "notification" && frame.method !== null) {
      const n = {
        method: frame.method,
        params: message.params,
        rawEventId,
      } as NotificationEnvelope;
      if (n.method === "serverRequest/resolved") {
        const id = String(n.params.requestId);
        const turn = requestTurn.get(id);
        const ref = turn?.requests.get(id);
        if (turn && ref) {
          turn.requests.delete(id);
          const reason = answered.has(id) ? "answered" : "withdrawn";
          turn.mapper.emit({ type: "request.closed", requestRef: ref, reason });
        }
        return;
      }
      const threadId = notificationThreadId(n);
      if (threadId === null) return;
      if (n.method === "turn/started") turns.set(threadId, openTurn(out));
      const turn = turns.get(threadId);
      if (!turn || turn.mapper.done) return;
      const turnId = notificationTurnId(n);
      const mine = turn.mapper.turnRef;
      if (mine !== null && turnId !== null && turnId !== mine) return;
      turn.mapper.handle(n);
      return;
    }
    if (frame.messageKind === "request" && frame.method !== null && frame.jsonRpcId !== null) {
      const request = {
        method: frame.method,
        id: frame.jsonRpcId,
        params: message.params,
        rawEventId,
        state: "pending",
      } as unknown as IncomingServerRequest;
      const kind = requestKind(request);
      const threadId = asRecord(message.params).threadId;
      const turn = typeof threadId === "string" ? turns.get(threadId) : undefined;
      if (kind === null || !turn || turn.mapper.done) return;
      const id = String(frame.jsonRpcId);
      const ref = `replay:${id}`;
      turn.requests.set(id, ref);
      requestTurn.set(id, turn);
      turn.mapper.emit(
        requestOpenedEvent(request, ref, kind, (itemRef) => turn.mapper.changesOf(itemRef)),
      );
    }
  });
  return out;
}

function openTurn(out: RuntimeEvent[]): Turn {
  const requests = new Map<string, string>();
  const mapper: TurnEventMapper = new TurnEventMapper(
    (event) => out.push(event),
    0,
    () => {
      // As live: requests still open when the turn ends close with it.
      for (const [id, ref] of requests) {
        requests.delete(id);
        mapper.emit({ type: "request.closed", requestRef: ref, reason: "turn_ended" });
      }
    },
  );
  return { mapper, requests };
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}
