import type { McpSdkServerConfigWithInstance } from "@anthropic-ai/claude-agent-sdk";
import type { AppToolDefinition } from "@skein/domain/provider";

/** The MCP server name Skein's app-owned tools live under (`mcp__skein__<tool>` for the model). */
export const APP_TOOL_SERVER = "skein";
const PREFIX = `mcp__${APP_TOOL_SERVER}__`;

/** The name the model (and the transcript) uses for an app-owned tool. */
export function appToolModelName(toolName: string): string {
  return `${PREFIX}${toolName}`;
}

/** The app tool a model-side tool name refers to, or null for Claude's own and other MCP tools. */
export function appToolNameOf(modelToolName: string): string | null {
  return modelToolName.startsWith(PREFIX) ? modelToolName.slice(PREFIX.length) : null;
}

export type AppToolInvocation = {
  toolName: string;
  input: unknown;
  /** The model's `tool_use` id when Claude Code passes it along, else null. */
  toolUseId: string | null;
};

export type AppToolInvoker = (
  call: AppToolInvocation,
) => Promise<{ output: string; isError?: boolean }>;

type JsonRpcId = string | number;
type JsonRpcMessage = {
  jsonrpc: "2.0";
  id?: JsonRpcId;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
};

/** What the SDK hands an in-process server in `instance.connect(transport)`. */
type SdkTransport = {
  start(): Promise<void>;
  send(message: JsonRpcMessage): Promise<void>;
  onmessage?: (message: JsonRpcMessage) => void;
};

const FALLBACK_PROTOCOL = "2025-06-18";
// Claude Code's key for the calling tool_use id in `tools/call` params `_meta`.
const TOOL_USE_META = "claudecode/toolUseId";

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A minimal in-process MCP server (initialize, tools/list, tools/call, ping) for app-owned tools.
 * The SDK's own `createSdkMcpServer`/`tool` only take zod shapes, while app tools arrive as JSON
 * Schema (`AppToolDefinition.inputSchema`); converting would lose the schema or need zod here.
 * The SDK only ever calls `instance.connect(transport)` on an sdk-type server, so this class
 * speaks MCP over that transport itself and hands the model the JSON Schema unchanged.
 */
class AppToolMcpServer {
  private transport: SdkTransport | null = null;

  constructor(
    private readonly tools: readonly AppToolDefinition[],
    private readonly invoke: AppToolInvoker,
  ) {}

  async connect(transport: SdkTransport): Promise<void> {
    this.transport = transport;
    transport.onmessage = (message) => {
      void this.handle(message);
    };
    await transport.start();
  }

  private async reply(id: JsonRpcId, body: { result: unknown } | { error: unknown }) {
    await this.transport?.send({ jsonrpc: "2.0", id, ...body });
  }

  private async handle(message: JsonRpcMessage): Promise<void> {
    // Notifications (`notifications/initialized`, cancellations) need no answer.
    if (message.id === undefined || message.method === undefined) return;
    const params = record(message.params);
    try {
      const result = await this.answer(message.method, params);
      if (result === null) {
        await this.reply(message.id, {
          error: { code: -32601, message: `Method not found: ${message.method}` },
        });
        return;
      }
      await this.reply(message.id, { result });
    } catch (error) {
      await this.reply(message.id, { error: { code: -32603, message: errorText(error) } });
    }
  }

  private async answer(method: string, params: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case "initialize":
        return {
          protocolVersion:
            typeof params.protocolVersion === "string" ? params.protocolVersion : FALLBACK_PROTOCOL,
          capabilities: { tools: {} },
          serverInfo: { name: APP_TOOL_SERVER, version: "0.1.0" },
        };
      case "ping":
        return {};
      case "tools/list":
        return {
          tools: this.tools.map((t) => ({
            name: t.name,
            description: t.description,
            inputSchema: t.inputSchema,
            // Never defer app tools behind tool search: the model must see them in every turn.
            _meta: { "anthropic/alwaysLoad": true },
          })),
        };
      case "tools/call":
        return this.call(params);
      default:
        return null;
    }
  }

  private async call(params: Record<string, unknown>) {
    const toolName = typeof params.name === "string" ? params.name : "";
    if (!this.tools.some((t) => t.name === toolName)) {
      return { content: [{ type: "text", text: `Unknown tool ${toolName}` }], isError: true };
    }
    const toolUseId = record(params._meta)[TOOL_USE_META];
    try {
      const { output, isError } = await this.invoke({
        toolName,
        input: params.arguments ?? {},
        toolUseId: typeof toolUseId === "string" ? toolUseId : null,
      });
      return { content: [{ type: "text", text: output }], isError: isError === true };
    } catch (error) {
      return { content: [{ type: "text", text: errorText(error) }], isError: true };
    }
  }
}

/** The `mcpServers` entry exposing `tools` to Claude Code; calls go to `invoke`. */
export function appToolServerConfig(
  tools: readonly AppToolDefinition[],
  invoke: AppToolInvoker,
): McpSdkServerConfigWithInstance {
  const server = new AppToolMcpServer(tools, invoke);
  return {
    type: "sdk",
    name: APP_TOOL_SERVER,
    // The SDK types `instance` as the MCP SDK's McpServer class but only calls `connect` on it.
    instance: server as unknown as McpSdkServerConfigWithInstance["instance"],
  };
}
