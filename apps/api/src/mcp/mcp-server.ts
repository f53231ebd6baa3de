import type { SkeinServices } from "@skein/contract";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../logger.ts";
import { registerThreadResources } from "./resources.ts";
import { callTool, createCaller, describeTool } from "./tool-kit.ts";
import { SKEIN_TOOLS } from "./tools/index.ts";

const INSTRUCTIONS =
  "Skein runs coding agents in threads, each run on a provider of its choice. Find a project " +
  "with skein_list_projects, start a thread with skein_create_thread, send it work with " +
  "skein_send_message and wait for the answer with skein_wait_run; fork, fan out to several " +
  "providers, compare and bring work back with the other tools. Give every command a fresh " +
  "commandId (cmd_…) and reuse it on retries.";

const BY_NAME = new Map(SKEIN_TOOLS.map((tool) => [tool.name, tool]));

/**
 * One MCP session's server: the tools and resources over the API's router, called as the agent
 * that opened the session (its `clientInfo.name` is who starts the threads it creates). The
 * caller has passed the HTTP edge's token check already.
 */
export function createSkeinMcpServer(services: SkeinServices, log: Logger): McpServer {
  const mcp = new McpServer(
    { name: "skein", version: services.version },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  const callerUntil = (signal?: AbortSignal) =>
    createCaller(
      {
        services,
        auth: { required: false, authenticated: true },
        forwardedBy: null,
        agentName: mcp.server.getClientVersion()?.name ?? null,
      },
      signal ? { signal } : {},
    );
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: SKEIN_TOOLS.map(describeTool),
  }));
  mcp.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = BY_NAME.get(request.params.name);
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `no tool ${request.params.name} (tools/list)`);
    }
    const call = { api: callerUntil(extra.signal), signal: extra.signal, apiUntil: callerUntil };
    return callTool(tool, request.params.arguments, call, (error) =>
      log.error({ err: error, tool: tool.name }, "MCP tool failed"),
    );
  });
  registerThreadResources(mcp, () => callerUntil());
  return mcp;
}
