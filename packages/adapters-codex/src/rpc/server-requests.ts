import type {
  RequestId,
  ServerRequestMethod,
  ServerRequestOf,
  ServerRequestResult,
} from "../protocol/index.ts";

/**
 * Lifecycle of a server→client request: `pending` until Skein answers, or until Codex withdraws
 * it (`serverRequest/resolved`, e.g. the turn was interrupted) or the process dies (`orphaned`).
 */
export type ServerRequestState = "pending" | "answered" | "withdrawn" | "orphaned";

type Envelope<M extends ServerRequestMethod> = {
  readonly method: M;
  readonly id: RequestId;
  readonly params: ServerRequestOf<M>["params"];
  readonly rawEventId: string | null;
  readonly state: ServerRequestState;
  /** Sends the answer; false (and nothing sent) unless the request is still pending. */
  respond(result: ServerRequestResult<M>): boolean;
  /** Answers with a JSON-RPC error; same rules as `respond`. */
  fail(message: string, code?: number): boolean;
};

/** A server→client request, narrowed by `method` to its typed params and result. */
export type IncomingServerRequest = {
  [M in ServerRequestMethod]: Envelope<M>;
}[ServerRequestMethod];

export type ServerRequestHandler = (request: IncomingServerRequest) => void;

type Send = (
  id: RequestId,
  body: { result: unknown } | { error: { code: number; message: string } },
) => void;

/**
 * Tracks open server requests by id so answers can come much later (a user approving in the UI)
 * and so a late answer to a withdrawn or orphaned request is refused instead of sent.
 */
export class ServerRequestTracker {
  private readonly states = new Map<string, { state: ServerRequestState }>();

  constructor(private readonly send: Send) {}

  create(
    method: ServerRequestMethod,
    id: RequestId,
    params: unknown,
    rawEventId: string | null,
  ): IncomingServerRequest {
    const entry = { state: "pending" as ServerRequestState };
    this.states.set(key(id), entry);
    const answer = (body: { result: unknown } | { error: { code: number; message: string } }) => {
      if (entry.state !== "pending") return false;
      entry.state = "answered";
      this.states.delete(key(id));
      this.send(id, body);
      return true;
    };
    const envelope = {
      method,
      id,
      params,
      rawEventId,
      get state() {
        return entry.state;
      },
      respond: (result: unknown) => answer({ result }),
      fail: (message: string, code = -32000) => answer({ error: { code, message } }),
    };
    // The method/params pairing comes from the wire; the generated union is the contract for it.
    return envelope as IncomingServerRequest;
  }

  withdraw(id: RequestId): void {
    const entry = this.states.get(key(id));
    if (!entry) return;
    entry.state = "withdrawn";
    this.states.delete(key(id));
  }

  orphanAll(): void {
    for (const entry of this.states.values()) entry.state = "orphaned";
    this.states.clear();
  }

  get pendingCount(): number {
    return this.states.size;
  }
}

// JSON-RPC ids may be numbers or strings; Codex echoes them back in `serverRequest/resolved`.
function key(id: RequestId): string {
  return `${typeof id}:${id}`;
}

/** Completeness is checked by the compiler: a regenerated binary's new method must be added. */
const SERVER_REQUEST_METHODS: Record<ServerRequestMethod, true> = {
  "item/commandExecution/requestApproval": true,
  "item/fileChange/requestApproval": true,
  "item/tool/requestUserInput": true,
  "mcpServer/elicitation/request": true,
  "item/permissions/requestApproval": true,
  "item/tool/call": true,
  "account/chatgptAuthTokens/refresh": true,
  "attestation/generate": true,
  applyPatchApproval: true,
  execCommandApproval: true,
};

export function isServerRequestMethod(method: string): method is ServerRequestMethod {
  return Object.hasOwn(SERVER_REQUEST_METHODS, method);
}
