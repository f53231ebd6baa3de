import { homedir } from "node:os";
import path from "node:path";
import { resolveCodexBinary } from "./resolve-binary.ts";

/** How Skein runs Codex. Every field defaults to the user's own Codex setup. */
export type CodexConfig = {
  /** Native `codex` executable; default: the one shipped with the pinned `@openai/codex`. */
  binaryPath?: string;
  /** `CODEX_HOME` for the app-server; default: `$CODEX_HOME`, else `~/.codex`. */
  codexHome?: string;
  /** Model for new threads; default: whatever the Codex config selects. */
  model?: string | null;
  /** Environment layered over the parent's; an `undefined` value removes that variable. */
  env?: Record<string, string | undefined>;
};

export type ResolvedCodexConfig = {
  binaryPath: string;
  codexHome: string;
  model: string | null;
  env: Record<string, string>;
};

export function resolveCodexConfig(
  config: CodexConfig = {},
  parentEnv: NodeJS.ProcessEnv = process.env,
): ResolvedCodexConfig {
  const codexHome = config.codexHome ?? parentEnv.CODEX_HOME ?? path.join(homedir(), ".codex");
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...parentEnv, ...config.env })) {
    if (value !== undefined) env[key] = value;
  }
  env.CODEX_HOME = codexHome;
  return {
    binaryPath: config.binaryPath ?? resolveCodexBinary(),
    codexHome,
    model: config.model ?? null,
    env,
  };
}
