import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_BODY_BYTES, type SkeinServices } from "@skein/contract";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { authenticate } from "../auth.ts";
import type { Logger } from "../logger.ts";
import { createSkeinMcpServer } from "./mcp-server.ts";

export const MCP_PATH = "/mcp";

/**
 * `POST/GET/DELETE /mcp`: Skein's MCP server over Streamable HTTP (B19). The API's token rules
 * hold: `Authorization: Bearer` on every request, a token in the URL never (the URL-token
 * exception exists for browsers' EventSource on subscriptions only). A session (one MCP client,
 * its `initialize` naming it) lives in this process; their number and idle time are bounded.
 */
export type McpEndpointOptions = {
  services: SkeinServices;
  apiToken: string | null;
  log: Logger;
  /** Open sessions at most; the one idle longest is closed to make room. Default 64. */
  maxSessions?: number;
  /** A session unused this long is closed (its client re-initializes). Default 30 min. */
  idleMs?: number;
};

type Session = { transport: StreamableHTTPServerTransport; server: McpServer; usedAt: number };

function jsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export class McpEndpoint {
  private readonly sessions = new Map<string, Session>();
  private readonly maxSessions: number;
  private readonly idleMs: number;
  private readonly reaper: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: McpEndpointOptions) {
    this.maxSessions = options.maxSessions ?? 64;
    this.idleMs = options.idleMs ?? 30 * 60_000;
    this.reaper = setInterval(() => this.reapIdle(), Math.min(this.idleMs, 60_000));
    this.reaper.unref();
  }

  get openSessions(): number {
    return this.sessions.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const auth = authenticate(this.options.apiToken, req.headers, null, false);
    if (!auth.authenticated) {
      jsonRpcError(
        res,
        401,
        -32001,
        "missing or wrong API token: send `Authorization: Bearer <SKEIN_API_TOKEN>` " +
          "(a token in the URL is not accepted at /mcp)",
        { "www-authenticate": 'Bearer realm="skein"' },
      );
      return;
    }
    if (this.closed) {
      jsonRpcError(res, 503, -32000, "Skein is shutting down");
      return;
    }
    const header = req.headers["mcp-session-id"];
    const sessionId = typeof header === "string" ? header : null;
    if (req.method === "POST") {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch (error) {
        if (error instanceof BodyTooLarge) {
          jsonRpcError(res, 413, -32600, `request body exceeds ${MAX_BODY_BYTES} bytes`);
        } else {
          jsonRpcError(res, 400, -32700, "the body is not JSON");
        }
        return;
      }
      if (sessionId === null) {
        if (!isInitializeRequest(body)) {
          jsonRpcError(res, 400, -32600, "no session: send `initialize` first");
          return;
        }
        await (await this.open()).handleRequest(req, res, body);
        return;
      }
      await this.sessionFor(sessionId, res)?.handleRequest(req, res, body);
      return;
    }
    if (req.method === "GET" || req.method === "DELETE") {
      if (sessionId === null) {
        jsonRpcError(res, 400, -32600, "the mcp-session-id header is missing");
        return;
      }
      await this.sessionFor(sessionId, res)?.handleRequest(req, res);
      return;
    }
    jsonRpcError(res, 405, -32600, `${req.method ?? "this method"} is not served at /mcp`, {
      allow: "GET, POST, DELETE",
    });
  }

  /** Closes every session (their streams end; clients re-initialize against the next server). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.reaper);
    await Promise.all([...this.sessions.values()].map((s) => s.transport.close()));
    this.sessions.clear();
  }

  private sessionFor(id: string, res: ServerResponse): StreamableHTTPServerTransport | null {
    const session = this.sessions.get(id);
    if (!session) {
      // The spec's answer for an unknown or expired session: the client starts a new one.
      jsonRpcError(res, 404, -32001, "session not found: send `initialize` again");
      return null;
    }
    session.usedAt = Date.now();
    return session.transport;
  }

  private async open(): Promise<StreamableHTTPServerTransport> {
    if (this.sessions.size >= this.maxSessions) this.closeIdlest();
    const server = createSkeinMcpServer(this.options.services, this.options.log);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server, usedAt: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  }

  private closeIdlest(): void {
    let idlest: Session | null = null;
    for (const session of this.sessions.values()) {
      if (idlest === null || session.usedAt < idlest.usedAt) idlest = session;
    }
    if (idlest) void this.dispose(idlest);
  }

  private reapIdle(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const session of this.sessions.values()) {
      if (session.usedAt < cutoff) void this.dispose(session);
    }
  }

  private async dispose(session: Session): Promise<void> {
    if (session.transport.sessionId) this.sessions.delete(session.transport.sessionId);
    await session.transport.close().catch((error: unknown) => {
      this.options.log.warn({ err: error }, "closing an MCP session failed");
    });
  }
}
