import { requestKind } from "../mapping/request-mapping.ts";
import type { RequestId } from "../protocol/index.ts";
import type { IncomingServerRequest } from "../rpc/server-requests.ts";
import type { CodexTurn } from "./codex-turn.ts";

type Open = { request: IncomingServerRequest; turn: CodexTurn };

/**
 * Routes Codex's server→client requests: app-owned tool calls go to the turn's tool handler and
 * are answered automatically; approvals and questions become runtime requests on the turn, kept
 * answerable by `requestRef` until Codex reports them resolved.
 */
export class ServerRequestRouter {
  private readonly open = new Map<string, Open>();
  private readonly refByRpcId = new Map<string, string>();

  constructor(private readonly turnFor: (threadId: string) => CodexTurn | undefined) {}

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
    if (kind === null || !turn) {
      request.fail(`Skein has no running turn to ask about ${request.method}`);
      return;
    }
    this.open.set(requestRef, { request, turn });
    this.refByRpcId.set(rpcKey(request.id), requestRef);
    turn.openRequest(request, requestRef, kind);
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
