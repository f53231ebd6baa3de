import { execFile } from "node:child_process";
import type { ProviderAuth, ProviderReadiness } from "@skein/domain/provider";
import { buildChildEnv, type ClaudeConfig } from "./config.ts";
import { claudeVersion, resolveClaudeExecutable } from "./executable.ts";

/** `claude auth status` reads local files and the environment; longer means it is not usable. */
const AUTH_STATUS_TIMEOUT_MS = 30_000;

/** Variables Claude Code signs in with as they are (checked: `claude auth status` says so). */
const CREDENTIAL_VARIABLES = [
  ["ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY"],
  ["ANTHROPIC_AUTH_TOKEN", "an auth token (ANTHROPIC_AUTH_TOKEN)"],
] as const;

/** What `claude auth status --json` prints (the fields Skein reads). */
type AuthStatus = {
  loggedIn?: boolean;
  authMethod?: string;
  apiKeySource?: string;
  email?: string | null;
  configDirectory?: string;
};

/**
 * B15: Claude is ready when its binary runs and the CLI itself, in the environment the session
 * will have, says it is logged in (`claude auth status`: an API key or auth token variable, an
 * `apiKeyHelper`, or the claude.ai login saved by `/login`). No model request is made.
 */
export async function claudeReadiness(config: ClaudeConfig): Promise<ProviderReadiness> {
  const executable = resolveClaudeExecutable(config);
  if (!executable) {
    return {
      found: false,
      version: null,
      ready: false,
      lastError:
        "The Claude Code runtime was not found. Reinstall Skein's dependencies (pnpm install), then check again.",
    };
  }
  const [version, auth] = await Promise.all([
    claudeVersion(executable),
    readAuth(executable, config),
  ]);
  if (version === null) {
    return {
      found: true,
      version: null,
      ready: false,
      lastError: `The Claude Code runtime (${executable}) does not run. Reinstall Skein's dependencies (pnpm install), then check again.`,
    };
  }
  const ready = auth.state === "signed-in";
  return { found: true, version, ready, lastError: ready ? null : auth.fix, auth };
}

async function readAuth(executable: string, config: ClaudeConfig): Promise<ProviderAuth> {
  // A credential variable needs no process to check (and the first message waits for this).
  const env = buildChildEnv(config, "default");
  const variable = CREDENTIAL_VARIABLES.find(([name]) => env[name]?.trim());
  if (variable) return { state: "signed-in", method: variable[1], fix: null };
  let status: AuthStatus;
  try {
    const out = await authStatus(executable, config);
    status = JSON.parse(out.slice(out.indexOf("{"))) as AuthStatus;
  } catch (error) {
    return {
      state: "unknown",
      method: null,
      fix: `Claude Code did not answer its sign-in check (${errorText(error)}). Run \`claude auth status\` on the server to see why, then check again.`,
    };
  }
  return authOf(status);
}

/** Words for what `claude auth status` answered. Exported for unit tests. */
export function authOf(status: AuthStatus): ProviderAuth {
  if (status.loggedIn) return { state: "signed-in", method: methodWords(status), fix: null };
  const dir = status.configDirectory ? `CLAUDE_CONFIG_DIR=${status.configDirectory} ` : "";
  return {
    state: "signed-out",
    method: null,
    fix: `Claude is not signed in. Run \`${dir}claude\` on the server and type \`/login\` (as the user running Skein), or set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) in the server's environment and restart it, then check again.`,
  };
}

function methodWords(status: AuthStatus): string {
  if (status.apiKeySource) return status.apiKeySource;
  if (status.authMethod === "oauth_token") return "an auth token (ANTHROPIC_AUTH_TOKEN)";
  if (status.authMethod === "claude.ai") {
    return status.email ? `Claude account ${status.email}` : "a Claude account (/login)";
  }
  return status.authMethod ?? "signed in";
}

/** The CLI exits 1 when logged out but still prints the JSON, so stdout is read either way. */
function authStatus(executable: string, config: ClaudeConfig): Promise<string> {
  const env = buildChildEnv(config, "default");
  return new Promise((resolve, reject) => {
    execFile(
      executable,
      ["auth", "status", "--json"],
      { timeout: AUTH_STATUS_TIMEOUT_MS, env },
      (error, stdout) => {
        if (stdout.includes("{")) resolve(stdout);
        else reject(error ?? new Error(`it printed ${JSON.stringify(stdout.slice(0, 200))}`));
      },
    );
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
