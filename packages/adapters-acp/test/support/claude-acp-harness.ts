import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  type AnthropicRecordedRequest,
  type AnthropicReply,
  anthropicBashReply,
  anthropicErrorReply,
  anthropicMessages,
  anthropicTextReply,
  type FakeMessagesServer,
  startFakeMessagesServer,
} from "@skein/fake-models";
import type { ContractReply, ConversationMessage } from "@skein/provider-contract";
import { createAcpAdapter } from "../../src/acp-adapter.ts";
import { parseAcpAgents } from "../../src/agents-config.ts";

export function claudeReply(reply: ContractReply): AnthropicReply {
  switch (reply.kind) {
    case "text":
      return anthropicTextReply(reply.text);
    case "slow-text": {
      const text = reply.chunks.join("");
      const chunkSize = Math.max(1, Math.ceil(text.length / Math.max(1, reply.chunks.length)));
      return anthropicTextReply(text, { chunkSize, chunkDelayMs: reply.delayMs });
    }
    case "command":
      return anthropicBashReply(reply.command);
    case "http-error":
      return anthropicErrorReply(reply.status, reply.message, { shouldRetry: false });
  }
}

/** Claude Code's own `<system-reminder>` blocks, put ahead of the user's text. */
const INJECTED = /^\s*<system-reminder>/;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b: unknown) =>
      typeof b === "object" && b !== null && "text" in b && typeof b.text === "string"
        ? b.text
        : "",
    )
    .join("\n");
}

export function claudeConversationOf(request: AnthropicRecordedRequest): ConversationMessage[] {
  return anthropicMessages(request).flatMap((message) => {
    const role = message.role;
    if (role !== "user" && role !== "assistant") return [];
    return message.content.flatMap((block): ConversationMessage[] => {
      if (block.type === "tool_result") return [{ role: "tool", text: textOf(block.content) }];
      if (block.type !== "text" || typeof block.text !== "string" || INJECTED.test(block.text)) {
        return [];
      }
      return [{ role, text: block.text }];
    });
  });
}

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
