import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { ThreadId } from "@skein/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool } from "./support/mcp-client.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

// `pnpm skein mcp` as an agent that only spawns servers runs it: a child process speaking MCP on
// stdio, relaying to a running Skein's /mcp with the server's token.

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const TOKEN = "stdio-token-0123456789abcdef";
let t: ScriptedTestServer;

beforeAll(async () => {
  t = await startScriptedServer({ token: TOKEN });
});
afterAll(async () => {
  await t?.close();
});

/** The official SDK client spawning `pnpm --silent skein mcp`, as an agent's config would. */
async function spawned(name: string, token: string | null): Promise<Client> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  delete env.SKEIN_API_TOKEN;
  if (token !== null) env.SKEIN_API_TOKEN = token;
  const client = new Client({ name, version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: "pnpm",
    args: ["--silent", "skein", "mcp", "--url", t.server.url],
    cwd: ROOT,
    env,
    stderr: "pipe",
  });
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close();
    throw error;
  }
  return client;
}

describe("B19: pnpm skein mcp (stdio)", () => {
  it("B19: serves the same tools on stdio; the spawning agent's name starts its threads", async () => {
    const { projectId } = await t.client.project.create.mutate({
      name: "stdio",
      workspaceRoot: t.workspaceDir,
    });
    const client = await spawned("stdio-agent", TOKEN);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(13);
      const { threadId } = await callTool<{ threadId: ThreadId }>(client, "skein_create_thread", {
        projectId,
        commandId: "cmd_stdio_create",
      });
      const events = await t.store.readStream(`thread-${threadId}`);
      expect(events[0]).toMatchObject({
        type: "ThreadCreated",
        data: { thread: { createdBy: "agent", agentName: "stdio-agent" } },
      });
    } finally {
      await client.close();
    }
  });

  it("B19: without the server's token the agent is told why, and nothing is appended", async () => {
    const before = await t.store.headSequence();
    await expect(spawned("tokenless-agent", null)).rejects.toThrow(/401|Authorization: Bearer/);
    expect(await t.store.headSequence()).toBe(before);
  });
});
