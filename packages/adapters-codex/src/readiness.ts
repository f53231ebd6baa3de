import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import type { ProviderAuth, ProviderReadiness } from "@skein/domain/provider";
import { type CodexConfig, resolveCodexConfig } from "./config/codex-config.ts";
import type { GetAccountResponse } from "./protocol/generated/v2/GetAccountResponse.ts";
import { CodexAppServerClient } from "./rpc/app-server-client.ts";

/** The account check answers from local files; a runtime that takes longer is not usable now. */
const ACCOUNT_TIMEOUT_MS = 30_000;

/**
 * B15: Codex is ready when its binary runs and `account/read` (a short-lived app-server, no thread,
 * no model request) shows an account, or shows that the configured model provider needs none.
 *
 * The app-server authenticates only with what `codex login` saved under CODEX_HOME: checked on
 * 0.171, an OPENAI_API_KEY or CODEX_API_KEY in its environment is not sent to the model, so such
 * a variable alone does not make Codex ready, and the fix says how to save it.
 */
export async function codexReadiness(config: CodexConfig): Promise<ProviderReadiness> {
  let resolved: ReturnType<typeof resolveCodexConfig>;
  try {
    resolved = resolveCodexConfig(config);
  } catch (error) {
    return notFound(`The Codex runtime was not found: ${errorText(error)}.`);
  }
  if (!existsSync(resolved.binaryPath)) {
    return notFound(`The Codex runtime was not found at ${resolved.binaryPath}.`);
  }
  const [version, auth] = await Promise.all([
    binaryVersion(resolved.binaryPath).catch((error: unknown) => new Error(errorText(error))),
    readAuth(resolved),
  ]);
  if (version instanceof Error) {
    return { ...notFound(`The Codex runtime does not run: ${version.message}.`), found: true };
  }
  const ready = auth.state === "signed-in" || auth.state === "not-required";
  return { found: true, version, ready, lastError: ready ? null : auth.fix, auth };
}

async function readAuth(resolved: ReturnType<typeof resolveCodexConfig>): Promise<ProviderAuth> {
  let answer: GetAccountResponse;
  try {
    const client = await CodexAppServerClient.start({
      config: resolved,
      providerSessionId: "readiness",
      cwd: tmpdir(),
      requestTimeoutMs: ACCOUNT_TIMEOUT_MS,
    });
    try {
      answer = await client.request("account/read", { refreshToken: false });
    } finally {
      await client.close();
    }
  } catch (error) {
    return {
      state: "unknown",
      method: null,
      fix: `Codex did not answer its account check (${errorText(error)}). Check that \`codex app-server\` starts on the server, then check again.`,
    };
  }
  return authOf(answer, resolved);
}

/** Words for what `account/read` answered. Exported for unit tests. */
export function authOf(
  answer: GetAccountResponse,
  resolved: { codexHome: string; env: Record<string, string> },
): ProviderAuth {
  const account = answer.account;
  if (account) return { state: "signed-in", method: accountWords(account), fix: null };
  if (!answer.requiresOpenaiAuth) {
    return {
      state: "not-required",
      method: "the model provider set in Codex's config.toml (no OpenAI sign-in needed)",
      fix: null,
    };
  }
  const home = `CODEX_HOME=${resolved.codexHome}`;
  const key = ["OPENAI_API_KEY", "CODEX_API_KEY"].find((name) => resolved.env[name]);
  const keyHint = key
    ? ` ${key} is set, but the Codex app-server does not read it: save it with \`printenv ${key} | ${home} codex login --with-api-key\`.`
    : ` To use an API key instead, run \`printenv OPENAI_API_KEY | ${home} codex login --with-api-key\`.`;
  return {
    state: "signed-out",
    method: null,
    fix: `Codex is not signed in. Run \`${home} codex login\` on the server (as the user running Skein), then check again.${keyHint}`,
  };
}

function accountWords(account: NonNullable<GetAccountResponse["account"]>): string {
  switch (account.type) {
    case "apiKey":
      return "an API key saved by codex login";
    case "chatgpt":
      return account.email ? `ChatGPT account ${account.email}` : "a ChatGPT account";
    case "amazonBedrock":
      return "Amazon Bedrock";
    case "gcp":
      return "Google Cloud";
  }
}

function notFound(lastError: string): ProviderReadiness {
  return {
    found: false,
    version: null,
    ready: false,
    lastError: `${lastError} Reinstall Skein's dependencies (pnpm install), then check again.`,
  };
}

function binaryVersion(binaryPath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(binaryPath, ["--version"], { timeout: 10_000 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(stdout.trim().replace(/^codex-cli\s+/, ""));
    });
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
