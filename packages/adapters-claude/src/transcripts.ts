import { existsSync, readdirSync, renameSync } from "node:fs";
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

/**
 * Moves a session's transcript out of the way (kept beside it, as evidence), so the session id can
 * start a new conversation. Returns where it went, or null when there was none.
 */
export function setTranscriptAside(config: ClaudeConfig, sessionId: string): string | null {
  const path = transcriptPath(config, sessionId);
  if (!path) return null;
  const aside = `${path}.set-aside-${Date.now()}`;
  renameSync(path, aside);
  return aside;
}
