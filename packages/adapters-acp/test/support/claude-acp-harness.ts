import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type FakeMessagesServer, startFakeMessagesServer } from "@skein/fake-models";
import { createAcpAdapter } from "../../src/acp-adapter.ts";
import { parseAcpAgents } from "../../src/agents-config.ts";

/** The entry point of the pinned `@zed-industries/claude-agent-acp`. */
export function claudeAgentAcpEntry(): string {
  const require = createRequire(import.meta.url);
  return join(
    dirname(require.resolve("@zed-industries/claude-agent-acp/package.json")),
    "dist",
    "index.js",
  );
}

export type ClaudeAcpHarness = {
  server: FakeMessagesServer;
  adapter: ReturnType<typeof createAcpAdapter>;
  cwd: string;
  /** The `SKEIN_ACP_AGENTS` value the adapter was configured from. */
  agentsJson: string;
  dispose(): Promise<void>;
};

/**
 * claude-agent-acp configured the way a person would (a `SKEIN_ACP_AGENTS` entry), pointed at
 * the fake Anthropic server with its own config dir: the generic ACP path, not the built-in one.
 */
export async function createClaudeAcpHarness(): Promise<ClaudeAcpHarness> {
  const server = await startFakeMessagesServer();
  const configDir = await mkdtemp(join(tmpdir(), "skein-claude-acp-config-"));
  const cwd = await mkdtemp(join(tmpdir(), "skein-claude-acp-cwd-"));
  const agentsJson = JSON.stringify([
    {
      id: "claude-acp",
      name: "Claude (ACP)",
      command: process.execPath,
      args: [claudeAgentAcpEntry()],
      env: {
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: "test-key",
        CLAUDE_CONFIG_DIR: configDir,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        // The Claude CLI refuses to start as root (as tests run here) unless told it is sandboxed.
        IS_SANDBOX: "1",
      },
    },
  ]);
  const { agents, problems } = parseAcpAgents(agentsJson, "SKEIN_ACP_AGENTS");
  const [spec] = agents;
  if (!spec || problems.length > 0) throw new Error(`bad agent entry: ${JSON.stringify(problems)}`);
  const adapter = createAcpAdapter(spec);
  // Capabilities come from the agent's own initialize, heard here once before the contract runs.
  await adapter.status();
  return {
    server,
    adapter,
    cwd,
    agentsJson,
    async dispose() {
      await server.close();
      await rm(configDir, { recursive: true, force: true, maxRetries: 5 });
      await rm(cwd, { recursive: true, force: true });
    },
  };
}
