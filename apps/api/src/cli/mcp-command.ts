// `pnpm skein mcp`: Skein's MCP server on stdio, for agents that only spawn their MCP servers.
import { parseArgs } from "node:util";
import { ConfigError, type ClientConfig, loadClientEnv } from "../env.ts";
import { runMcpStdioBridge } from "../mcp/stdio-bridge.ts";

const USAGE = `usage: pnpm skein mcp [--url URL]

Serves Skein's MCP tools on stdin/stdout by relaying them to a running Skein (pnpm start) at
--url, else SKEIN_URL, else http://SKEIN_HOST:SKEIN_API_PORT (http://127.0.0.1:4317). With a
server token, set SKEIN_API_TOKEN. Threads the agent starts record it as their starter.`;

/** The edges' shared command line: `--url` over the environment. */
export function clientConfigFrom(args: string[], usage: string, name: string): ClientConfig | null {
  try {
    const { values } = parseArgs({ args, options: { url: { type: "string" } }, strict: true });
    const config = loadClientEnv();
    return values.url ? { ...config, url: values.url.replace(/\/+$/, "") } : config;
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : (error as Error).message;
    process.stderr.write(`skein ${name}: ${message}\n${usage}\n`);
    return null;
  }
}

export async function mcpCommand(args: string[]): Promise<number> {
  const config = clientConfigFrom(args, USAGE, "mcp");
  if (config === null) return 2;
  await runMcpStdioBridge({ url: config.url, token: config.token });
  return 0;
}
