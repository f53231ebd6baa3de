import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** The official MCP SDK client on Skein's `/mcp`, named `name` (who starts its threads). */
export async function connectMcp(
  baseUrl: string,
  options: { token?: string; name?: string } = {},
): Promise<Client> {
  const client = new Client({ name: options.name ?? "test-agent", version: "1.0.0" });
  const headers: Record<string, string> =
    options.token === undefined ? {} : { authorization: `Bearer ${options.token}` };
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", baseUrl), { requestInit: { headers } }),
  );
  return client;
}

/** A tool call's answer; a tool error fails the test with its text. */
export async function callTool<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} refused: ${toolText(result)}`);
  return JSON.parse(toolText(result)) as T;
}

/** A tool call that must be refused: its text (`CODE: the API's words`). */
export async function toolRefusal(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError) throw new Error(`${name} was expected to be refused: ${toolText(result)}`);
  return toolText(result);
}

export function toolText(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}
