import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { ClaudeConfig } from "./config.ts";

/** Claude Code's config directory as the child process will see it. */
export function claudeConfigDir(
  config: ClaudeConfig,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return (
    config.configDir ??
    config.env?.CLAUDE_CONFIG_DIR ??
    env.CLAUDE_CONFIG_DIR ??
    join(homedir(), ".claude")
  );
}

/**
 * Whether a session transcript exists. Transcripts live under `projects/<munged cwd>/<id>.jsonl`;
 * every project folder is checked rather than re-deriving Claude Code's path munging.
 */
export function transcriptExists(config: ClaudeConfig, sessionId: string): boolean {
  const projects = join(claudeConfigDir(config), "projects");
  if (!existsSync(projects)) return false;
  return readdirSync(projects).some((dir) => existsSync(join(projects, dir, `${sessionId}.jsonl`)));
}
