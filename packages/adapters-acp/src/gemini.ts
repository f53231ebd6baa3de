import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ProviderAdapter, ProviderCapabilityFlags } from "@skein/domain/provider";
import { createAcpAdapter } from "./acp-adapter.ts";
import type { AcpAgentSpec } from "./agent-spec.ts";

export type GeminiConfig = {
  /** Path of Gemini CLI's `gemini.js` (default: the pinned `@google/gemini-cli` bundle). */
  entry?: string;
  /** Extra environment for the CLI (HOME, GEMINI_API_KEY, GOOGLE_GEMINI_BASE_URL…). */
  env?: Record<string, string>;
};

/**
 * What Skein uses of the pinned Gemini CLI (0.61.0) over ACP. It declares no `session/fork`, and
 * its session modes include `plan`. It declares `loadSession`, but Skein leaves `resume` off:
 * loading a session during the minute it started reuses that session's record file and resets
 * its messages, so the load fails and the session is lost (see ACP-NOTES.md); threads come back
 * by portable rebuild instead. The ACP tests check the rest against its real `initialize`.
 */
export const GEMINI_CAPABILITIES: ProviderCapabilityFlags = {
  nativeFork: false,
  forkAtTurn: false,
  rollback: false,
  steer: false,
  interrupt: true,
  resume: false,
  strongTurnIds: false,
  nativeSubagents: false,
  appOwnedTools: false,
  historyInjection: true,
  approvals: true,
  readHistory: false,
  planMode: true,
  effort: false,
  adoptSessions: false,
};

/**
 * Gemini CLI's system defaults for Skein's runs (the person's own settings still win): commands
 * run without a pty, so their output reaches ACP as text instead of a terminal screen, which the
 * CLI does not send.
 */
const SYSTEM_DEFAULTS = fileURLToPath(new URL("../gemini-system-defaults.json", import.meta.url));

/** The pinned Gemini CLI's entry script, or null when it is not installed. */
export function resolveGeminiEntry(config: GeminiConfig = {}): string | null {
  if (config.entry) return existsSync(config.entry) ? config.entry : null;
  try {
    const require = createRequire(import.meta.url);
    const entry = join(
      dirname(require.resolve("@google/gemini-cli/package.json")),
      "bundle",
      "gemini.js",
    );
    return existsSync(entry) ? entry : null;
  } catch {
    return null;
  }
}

/** Gemini CLI as an ACP agent: `node gemini.js --acp`, its modes mapped to Skein's. */
export function geminiAgentSpec(config: GeminiConfig = {}): AcpAgentSpec {
  const entry = resolveGeminiEntry(config) ?? "gemini.js (not installed)";
  return {
    id: "gemini",
    name: "Gemini CLI",
    command: process.execPath,
    args: [entry, "--acp"],
    env: { GEMINI_CLI_SYSTEM_DEFAULTS_PATH: SYSTEM_DEFAULTS, ...config.env },
    modes: { approvalRequired: "default", fullAccess: "yolo", plan: "plan" },
    modelArgs: (model) => ["--model", model],
    // Gemini CLI 0.61 cannot tell a missing file from a failed read over ACP: it rejects with the
    // raw JSON-RPC error object, so its "no such file" check never matches and write_file could
    // create no new file. Its reads stay its own (held to the session's folder by Gemini's own
    // workspace check); its writes still come to Skein, inside the thread's folder only.
    clientFs: { readTextFile: false },
  };
}

/**
 * The readiness rule for Gemini: an API key in the environment, or a sign-in the CLI saved
 * (`~/.gemini/oauth_creds.json`); null when ready, else what is missing in words.
 */
export async function geminiReadiness(config: GeminiConfig = {}): Promise<string | null> {
  const env = { ...process.env, ...config.env };
  if (env.GEMINI_API_KEY || env.GOOGLE_API_KEY) return null;
  const home = env.HOME ?? homedir();
  if (existsSync(join(home, ".gemini", "oauth_creds.json"))) return null;
  const settings = await readFile(join(home, ".gemini", "settings.json"), "utf8").catch(() => "");
  if (settings.includes("vertex-ai") && env.GOOGLE_CLOUD_PROJECT) return null;
  return "Gemini CLI is not signed in: set GEMINI_API_KEY, or run `gemini` once and sign in with Google";
}

export function createGeminiAdapter(config: GeminiConfig = {}): ProviderAdapter {
  return createAcpAdapter(geminiAgentSpec(config), {
    capabilities: GEMINI_CAPABILITIES,
    readiness: () => geminiReadiness(config),
  });
}
