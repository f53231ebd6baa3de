import { randomUUID } from "node:crypto";
import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "@agentclientprotocol/sdk";
import type { RuntimeEvent, RuntimeRequestAnswer } from "@skein/domain/provider";
import { commandOf, requestKindOf } from "./tool-items.ts";

type Pending = {
  options: PermissionOption[];
  toolCallId: string;
  resolve: (response: RequestPermissionResponse) => void;
  onDeclined: () => void;
};

function pick(options: PermissionOption[], kinds: PermissionOption["kind"][]) {
  for (const kind of kinds) {
    const option = options.find((o) => o.kind === kind);
    if (option) return option;
  }
  return undefined;
}

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: "cancelled" } };

/** The agent's answer for Skein's decision: the option of the matching kind, else cancelled. */
export function responseFor(
  options: PermissionOption[],
  decision: RuntimeRequestAnswer["decision"],
): RequestPermissionResponse {
  const order: Record<RuntimeRequestAnswer["decision"], PermissionOption["kind"][]> = {
    accept: ["allow_once", "allow_always"],
    accept_for_session: ["allow_always", "allow_once"],
    decline: ["reject_once", "reject_always"],
    cancel: [],
  };
  const option = pick(options, order[decision]);
  return option ? { outcome: { outcome: "selected", optionId: option.optionId } } : CANCELLED;
}

/**
 * `session/request_permission` as Skein requests: each opens a request the person answers with
 * `respondToRequest`; the agent waits for the answer. A request left open when its turn ends is
 * answered `cancelled`, and answering it later fails.
 */
export class PermissionRequests {
  private readonly pending = new Map<string, Pending>();

  /** Opens a request; `emit` gets its `request.opened`, and later its `request.closed`. */
  open(
    params: RequestPermissionRequest,
    emit: (event: RuntimeEvent) => void,
    onDeclined: () => void,
  ): Promise<RequestPermissionResponse> {
    const requestRef = `perm:${randomUUID()}`;
    const call = params.toolCall;
    const kind = requestKindOf(call.kind);
    const command = kind === "command" ? commandOf(call) : undefined;
    emit({
      type: "request.opened",
      requestRef,
      kind,
      itemRef: call.toolCallId,
      summary: call.title ?? "The agent asks for permission",
      ...(command === undefined ? {} : { command }),
      ...(call.rawInput === undefined ? {} : { input: call.rawInput }),
      ...(call.title ? { toolName: call.title } : {}),
    });
    return new Promise((resolve) => {
      this.pending.set(requestRef, {
        options: params.options,
        toolCallId: call.toolCallId,
        onDeclined,
        resolve: (response) => {
          this.pending.delete(requestRef);
          const reason = response.outcome.outcome === "cancelled" ? "cancelled" : "answered";
          emit({ type: "request.closed", requestRef, reason });
          resolve(response);
        },
      });
    });
  }

  has(requestRef: string): boolean {
    return this.pending.has(requestRef);
  }

  answer(requestRef: string, answer: RuntimeRequestAnswer): void {
    const pending = this.pending.get(requestRef);
    if (!pending) throw new Error(`request ${requestRef} is no longer open`);
    if (answer.decision === "decline" || answer.decision === "cancel") pending.onDeclined();
    pending.resolve(responseFor(pending.options, answer.decision));
  }

  /** Answers every open request `cancelled` (the turn ended or was interrupted). */
  cancelAll(): void {
    for (const pending of [...this.pending.values()]) {
      pending.onDeclined();
      pending.resolve(CANCELLED);
    }
  }
}
