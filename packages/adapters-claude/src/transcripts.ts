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
 * Where a session's transcript lives, or null when it has none yet. Transcripts live under
 * `projects/<munged cwd>/<id>.jsonl`; every project folder is checked rather than re-deriving
 * Claude Code's path munging.
 */
export function transcriptPath(config: ClaudeConfig, sessionId: string): string | null {
  const projects = join(claudeConfigDir(config), "projects");
  if (!existsSync(projects)) return null;
  for (const dir of readdirSync(projects)) {
    const path = join(projects, dir, `${sessionId}.jsonl`);
    if (existsSync(path)) return path;
  }
  return null;
}

/** Whether a session transcript exists. */
export function transcriptExists(config: ClaudeConfig, sessionId: string): boolean {
  return transcriptPath(config, sessionId) !== null;
}
