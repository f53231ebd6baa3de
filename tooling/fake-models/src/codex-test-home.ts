import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type CodexTestHomeOptions = {
  /** The fake Responses server's base URL, including `/v1`. */
  baseUrl: string;
  model?: string;
  /** Extra top-level TOML lines appended verbatim (e.g. `approval_policy = "never"`). */
  extraToml?: string;
  /** Extra `[features]` flags (e.g. `{ multi_agent_v2: true }` for sub-agents). */
  features?: Record<string, boolean>;
};

export type CodexTestHome = {
  /** Use as `CODEX_HOME` for the app-server process. */
  dir: string;
  remove(): Promise<void>;
};

/**
 * Writes a throwaway `CODEX_HOME` whose config routes every model call to the fake server and
 * turns off everything that would reach the network (update checks, plugins, apps, analytics).
 * Retries are off so a scripted HTTP error surfaces immediately instead of after back-off.
 *
 * Shell snapshots are off too: for every new thread Codex runs the machine's login shell
 * (`bash -lc`, sourcing ~/.bashrc) to capture its environment, so what a test or bench costs
 * would depend on the host's shell setup. On these machines ~/.bashrc runs `pyenv init`, whose
 * rehash lock serialized 200 threads' snapshots into an 80 s stall of every first turn, and one
 * snapshot kept both cores busy through the first turn it raced. Commands still run in a login
 * shell of their own; only the cache of its environment is skipped.
 */
export async function createCodexTestHome(options: CodexTestHomeOptions): Promise<CodexTestHome> {
  const dir = await mkdtemp(join(tmpdir(), "skein-codex-home-"));
  const lines = [
    `model = ${tomlString(options.model ?? "gpt-5.1-codex")}`,
    `model_provider = "mock"`,
    "check_for_update_on_startup = false",
    options.extraToml ?? "",
    "",
    "[model_providers.mock]",
    `name = "mock"`,
    `base_url = ${tomlString(options.baseUrl)}`,
    `wire_api = "responses"`,
    "request_max_retries = 0",
    "stream_max_retries = 0",
    "",
    "[features]",
    "plugins = false",
    "remote_plugin = false",
    "apps = false",
    "shell_snapshot = false",
    ...Object.entries(options.features ?? {}).map(([name, on]) => `${name} = ${on}`),
    "",
    "[analytics]",
    "enabled = false",
    "",
  ];
  await writeFile(join(dir, "config.toml"), lines.join("\n"));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

function tomlString(value: string): string {
  return JSON.stringify(value);
}
