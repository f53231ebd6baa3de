import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CodexTestHome } from "./codex-test-home.ts";

/** A loopback URL where nothing listens (a port just freed): "unreachable" without leaving. */
export async function closedLoopbackUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/**
 * A throwaway `CODEX_HOME` on Codex's built-in OpenAI provider (the one that needs a sign-in),
 * with every OpenAI and ChatGPT URL at `baseUrl` (a dead loopback port in tests) and side traffic
 * off. With `apiKey`, the key is saved as `codex login --with-api-key` saves it (auth.json).
 */
export async function createOpenAiCodexHome(options: {
  baseUrl: string;
  apiKey?: string;
}): Promise<CodexTestHome> {
  const dir = await mkdtemp(join(tmpdir(), "skein-codex-openai-"));
  const url = JSON.stringify(options.baseUrl.replace(/\/+$/, ""));
  const lines = [
    `openai_base_url = ${JSON.stringify(`${options.baseUrl.replace(/\/+$/, "")}/v1`)}`,
    `chatgpt_base_url = ${url}`,
    "check_for_update_on_startup = false",
    "",
    "[features]",
    "plugins = false",
    "remote_plugin = false",
    "apps = false",
    "",
    "[analytics]",
    "enabled = false",
    "",
  ];
  await writeFile(join(dir, "config.toml"), lines.join("\n"));
  if (options.apiKey !== undefined) {
    const auth = { auth_mode: "apikey", OPENAI_API_KEY: options.apiKey };
    await writeFile(join(dir, "auth.json"), JSON.stringify(auth), { mode: 0o600 });
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
