import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type { ClaudeConfig } from "./config.ts";

/**
 * The `claude` binary the SDK would run: the configured one, else the native binary that ships in
 * the SDK's per-platform optional dependency (resolved from the SDK's own location, as it does).
 */
export function resolveClaudeExecutable(config: ClaudeConfig): string | null {
  if (config.executablePath)
    return existsSync(config.executablePath) ? config.executablePath : null;
  const require = createRequire(import.meta.url);
  let sdkEntry: string;
  try {
    sdkEntry = require.resolve("@anthropic-ai/claude-agent-sdk");
  } catch {
    return null;
  }
  const fromSdk = createRequire(sdkEntry);
  const base = `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`;
  const suffix = process.platform === "win32" ? ".exe" : "";
  for (const pkg of [base, `${base}-musl`]) {
    try {
      const path = fromSdk.resolve(`${pkg}/claude${suffix}`);
      if (existsSync(path)) return path;
    } catch {
      // not installed for this platform variant
    }
  }
  return null;
}

/** `claude --version`, e.g. `2.1.332 (Claude Code)`; null when it cannot run. */
export function claudeVersion(executable: string, timeoutMs = 10_000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(executable, ["--version"], { timeout: timeoutMs }, (error, stdout) => {
      resolve(error ? null : stdout.trim() || null);
    });
  });
}
