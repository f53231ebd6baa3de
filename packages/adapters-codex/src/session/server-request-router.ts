import { requestKind } from "../mapping/request-mapping.ts";
import type { RequestId } from "../protocol/index.ts";
import type { IncomingServerRequest } from "../rpc/server-requests.ts";
import type { CodexTurn } from "./codex-turn.ts";

type Open = { request: IncomingServerRequest; turn: CodexTurn };

/**
 * Routes Codex's server→client requests: app-owned tool calls go to the turn's tool handler and
 * are answered automatically; approvals and questions become runtime requests on the turn, kept
 * answerable by `requestRef` until Codex reports them resolved. A sub-agent's request (its own
 * native thread) is asked on the running turn of the thread that spawned it: `turnFor` walks the
 * known lineage, and `parentOf` asks Codex about a thread not seen spawning yet.
 */
export class ServerRequestRouter {
  private readonly open = new Map<string, Open>();
  private readonly refByRpcId = new Map<string, string>();

  constructor(
    private readonly turnFor: (threadId: string) => CodexTurn | undefined,
    private readonly parentOf: (threadId: string) => Promise<string | null> = async () => null,
  ) {}

  route(request: IncomingServerRequest, requestRef: string): void {
    const params: unknown = request.params;
    const threadId =
      typeof params === "object" && params !== null && "threadId" in params
        ? String(params.threadId)
        : null;
    const turn = threadId === null ? undefined : this.turnFor(threadId);
    if (request.method === "item/tool/call") {
      void this.callAppTool(request, turn);
      return;
    }
    const kind = requestKind(request);
    if (kind === null) {
      request.fail(`Skein does not answer ${request.method}`);
      return;
    }
    if (turn) {
      this.openOn(turn, request, requestRef, kind);
      return;
    }
    if (threadId === null) {
      request.fail(`Skein cannot tell which thread asks ${request.method}`);
      return;
    }
    void this.openViaAncestor(threadId, request, requestRef, kind);
  }

  private openOn(
    turn: CodexTurn,
    request: IncomingServerRequest,
    requestRef: string,
    kind: NonNullable<ReturnType<typeof requestKind>>,
  ): void {
    this.open.set(requestRef, { request, turn });
    this.refByRpcId.set(rpcKey(request.id), requestRef);
    turn.openRequest(request, requestRef, kind);
  }

  /** A thread not known as a sub-agent yet: ask Codex for its parent chain, then the turn. */
  private async openViaAncestor(
    threadId: string,
    request: IncomingServerRequest,
    requestRef: string,
    kind: NonNullable<ReturnType<typeof requestKind>>,
  ): Promise<void> {
    let turn: CodexTurn | undefined;
    let current: string | null = threadId;
    const seen = new Set<string>();
    while (!turn && current !== null && !seen.has(current) && seen.size < 16) {
      seen.add(current);
      current = await this.parentOf(current).catch(() => null);
      if (current !== null) turn = this.turnFor(current);
    }
    // Codex may have withdrawn it (or the process died) while the lineage was looked up.
    if (request.state !== "pending") return;
    if (!turn) {
      request.fail(
        `Skein has no running turn on thread ${threadId} or a thread that spawned it to ask about ${request.method}`,
      );
      return;
    }
    this.openOn(turn, request, requestRef, kind);
  }

  get(requestRef: string): IncomingServerRequest | undefined {
    return this.open.get(requestRef)?.request;
  }

  /** Codex's `serverRequest/resolved`: answered by us or withdrawn by Codex. */
  resolved(id: RequestId): void {
    const ref = this.refByRpcId.get(rpcKey(id));
    if (ref === undefined) return;
    this.refByRpcId.delete(rpcKey(id));
    const entry = this.open.get(ref);
    this.open.delete(ref);
    entry?.turn.closeRequest(ref, entry.request.state === "answered" ? "answered" : "withdrawn");
  }

  /** The process is gone: nothing open can be answered any more. */
  clear(): void {
    this.open.clear();
    this.refByRpcId.clear();
  }

  private async callAppTool(
    request: Extract<IncomingServerRequest, { method: "item/tool/call" }>,
    turn: CodexTurn | undefined,
  ): Promise<void> {
    const handler = turn?.onAppToolCall;
    const { params } = request;
    if (!handler) {
      request.respond(toolResult(false, `No handler for app tool ${params.tool}`));
      return;
    }
    try {
      const result = await handler({
        toolName: params.tool,
        input: params.arguments,
        callRef: params.callId,
        nativeThreadRef: params.threadId,
      });
      request.respond(toolResult(!result.isError, result.output));
    } catch (error) {
      request.respond(toolResult(false, error instanceof Error ? error.message : String(error)));
    }
  }
}

function toolResult(success: boolean, text: string) {
  return { success, contentItems: [{ type: "inputText" as const, text }] };
}

function rpcKey(id: RequestId): string {
  return `${typeof id}:${id}`;
}
