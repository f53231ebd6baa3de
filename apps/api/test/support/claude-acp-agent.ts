import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * A `SKEIN_ACP_AGENTS` entry for the pinned `@zed-industries/claude-agent-acp` (a real ACP agent)
 * on the fake Anthropic API at `anthropicUrl`, with its own Claude config dir: the entry a
 * person would write, for the tests of the generic ACP path (B18).
 */
export function claudeAcpAgentEntry(anthropicUrl: string, configDir: string) {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve("@zed-industries/claude-agent-acp/package.json"));
  return {
    id: "claude-acp",
    name: "Claude (ACP)",
    command: process.execPath,
    args: [join(root, "dist", "index.js")],
    env: {
      ANTHROPIC_BASE_URL: anthropicUrl,
      ANTHROPIC_API_KEY: "test-key",
      CLAUDE_CONFIG_DIR: configDir,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      // The Claude CLI refuses to start as root (as tests run here) unless told it is sandboxed.
      IS_SANDBOX: "1",
    },
  };
}
