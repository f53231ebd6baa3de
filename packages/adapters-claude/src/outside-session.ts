import { type Options, query } from "@anthropic-ai/claude-agent-sdk";
import { buildChildEnv, type ClaudeConfig } from "./config.ts";

/**
 * For tests of adoption (B6): a Claude Code conversation made the way a person makes one outside
 * Skein, a plain one-shot SDK `query` per prompt (the second and later resuming the first),
 * in `cwd` under the config's Claude config dir. Resolves with the session id once every prompt
 * has its result. `mcpServers` (with the tools they allow) give that Claude Code MCP servers of
 * its own, as a person's setup would (B19: Skein's own `/mcp`).
 */
export async function claudeSessionOutsideSkein(
  config: ClaudeConfig,
  cwd: string,
  prompts: readonly string[],
  options: Pick<Options, "mcpServers" | "allowedTools"> = {},
): Promise<string> {
  let sessionId: string | null = null;
  for (const prompt of prompts) {
    const turn = query({
      prompt,
      options: {
        cwd,
        permissionMode: "default",
        env: buildChildEnv(config, "default"),
        ...(config.executablePath ? { pathToClaudeCodeExecutable: config.executablePath } : {}),
        ...(sessionId ? { resume: sessionId } : {}),
        ...options,
      },
    });
    for await (const message of turn) {
      if (message.type !== "result") continue;
      if (message.subtype !== "success") throw new Error(`Claude Code ended ${message.subtype}`);
      sessionId = message.session_id;
    }
  }
  if (!sessionId) throw new Error("Claude Code reported no session");
  return sessionId;
}
