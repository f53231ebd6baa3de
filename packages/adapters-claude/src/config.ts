import type { PermissionMode } from "@anthropic-ai/claude-agent-sdk";

/**
 * How Skein runs Claude Code. Every field is optional: left out, Claude Code behaves as it does
 * for the user on this machine (bundled binary, `~/.claude` or `$CLAUDE_CONFIG_DIR`, the user's
 * default model and credentials).
 */
export type ClaudeConfig = {
  /** A `claude` executable to run instead of the one bundled with the SDK. */
  executablePath?: string;
  /** Claude Code's config/session directory (`CLAUDE_CONFIG_DIR`). */
  configDir?: string;
  /** Model alias or id; default: the user's configured model. */
  model?: string;
  /** Default permission mode for new sessions (default `default`: ask through `canUseTool`). */
  permissionMode?: PermissionMode;
  /** Model API base URL (`ANTHROPIC_BASE_URL`). */
  baseUrl?: string;
  /** API key (`ANTHROPIC_API_KEY`). */
  apiKey?: string;
  /**
   * Stop Claude Code's telemetry, update checks and other side traffic
   * (`CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC`). Default true: a server app has no use for it.
   */
  disableNonessentialTraffic?: boolean;
  /** Extra environment for the child process, applied over `process.env`. */
  env?: Record<string, string | undefined>;
  /** Receives the child's stderr, line by line (diagnostics only). */
  stderr?: (line: string) => void;
};

export const CLIENT_APP = "skein/0.1.0";

/** True when this process runs as root, where Claude Code refuses bypass mode without a sandbox flag. */
export function runningAsRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/**
 * The child's whole environment. The SDK's `env` option replaces the environment instead of
 * merging it, so this starts from `process.env`.
 */
export function buildChildEnv(
  config: ClaudeConfig,
  permissionMode: PermissionMode,
  baseEnv: NodeJS.ProcessEnv = process.env,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...baseEnv, ...config.env };
  if (config.configDir !== undefined) env.CLAUDE_CONFIG_DIR = config.configDir;
  if (config.baseUrl !== undefined) env.ANTHROPIC_BASE_URL = config.baseUrl;
  if (config.apiKey !== undefined) env.ANTHROPIC_API_KEY = config.apiKey;
  if (config.disableNonessentialTraffic !== false) {
    env.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC ??= "1";
  }
  env.CLAUDE_AGENT_SDK_CLIENT_APP ??= CLIENT_APP;
  // Claude Code accepts exactly "1" (an inherited IS_SANDBOX=yes still refuses bypass as root).
  if (permissionMode === "bypassPermissions" && runningAsRoot()) env.IS_SANDBOX = "1";
  return env;
}
