import type { Readable, Writable } from "node:stream";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  InitializeResultSchema,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import { MCP_PATH } from "./mcp-http.ts";

/**
 * `pnpm skein mcp`: Skein's MCP server for agents that only spawn servers. Every message on
 * stdio goes to a running Skein's `/mcp` and back, unchanged, so there is one MCP server (the
 * HTTP one, with its token check) and the spawning agent's own `initialize` names it there.
 */
export type StdioBridgeOptions = {
  /** The Skein API's base URL, e.g. `http://127.0.0.1:4317`. */
  url: string;
  /** The server's `SKEIN_API_TOKEN`, sent as a bearer token. */
  token: string | null;
  stdin?: Readable;
  stdout?: Writable;
  /** Where the bridge's own failures are told (never stdout, which carries the protocol). */
  warn?: (line: string) => void;
};

/** Runs until stdin ends; then the upstream session is ended too. */
export async function runMcpStdioBridge(options: StdioBridgeOptions): Promise<void> {
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  const endpoint = new URL(MCP_PATH, options.url);
  const headers: Record<string, string> =
    options.token === null ? {} : { authorization: `Bearer ${options.token}` };
  const upstream = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } });
  const local = new StdioServerTransport(options.stdin, options.stdout);
  let initializeId: string | number | null = null;

  upstream.onmessage = (message: JSONRPCMessage) => {
    // Later requests carry the negotiated version, as the SDK's own client does.
    if (isJSONRPCResultResponse(message) && message.id === initializeId) {
      const result = InitializeResultSchema.safeParse(message.result);
      if (result.success) upstream.setProtocolVersion(result.data.protocolVersion);
    }
    void local.send(message).catch((error: unknown) => warn(`skein mcp: ${String(error)}`));
  };
  upstream.onerror = (error) => warn(`skein mcp: ${endpoint.href}: ${error.message}`);
  local.onmessage = (message) => {
    if (isJSONRPCRequest(message) && message.method === "initialize") initializeId = message.id;
    upstream.send(message).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      warn(`skein mcp: ${endpoint.href}: ${reason}`);
      // A request still gets its answer: the agent sees why instead of waiting forever.
      if (isJSONRPCRequest(message)) {
        void local.send({
          jsonrpc: "2.0",
          id: message.id,
          error: {
            code: -32000,
            message: `Skein at ${options.url} did not answer (${reason}); is it running (pnpm start)?`,
          },
        });
      }
    });
  };
  const ended = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
    options.stdin?.once("end", () => resolve());
    if (!options.stdin) process.stdin.once("end", () => resolve());
  });
  await upstream.start();
  await local.start();
  await ended;
  await upstream.terminateSession().catch(() => undefined);
  await upstream.close();
  await local.close();
}
