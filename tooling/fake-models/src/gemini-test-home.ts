import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type GeminiTestHome = {
  /** Use as `HOME` for the Gemini CLI process (its settings live in `<home>/.gemini`). */
  dir: string;
  /** The environment that points Gemini CLI at `baseUrl` with a throwaway API key. */
  env: Record<string, string>;
  remove(): Promise<void>;
};

/**
 * Writes a throwaway `HOME` whose Gemini CLI settings pick API-key auth and turn off update
 * checks and usage statistics, and returns the environment that routes every model call to the
 * fake server (`GOOGLE_GEMINI_BASE_URL`) and trusts the workspace (else the CLI refuses it).
 */
export async function createGeminiTestHome(options: { baseUrl: string }): Promise<GeminiTestHome> {
  const dir = await mkdtemp(join(tmpdir(), "skein-gemini-home-"));
  await mkdir(join(dir, ".gemini"));
  const settings = {
    security: { auth: { selectedType: "gemini-api-key" } },
    // One attempt per model call, and no retry of a failed fetch: a scripted HTTP error or a dead
    // model port surfaces at once instead of after Gemini's own back-off (~70 s for a dead port).
    general: { disableAutoUpdate: true, maxAttempts: 1, retryFetchErrors: false },
    privacy: { usageStatisticsEnabled: false },
  };
  await writeFile(join(dir, ".gemini", "settings.json"), JSON.stringify(settings, null, 2));
  return {
    dir,
    env: {
      HOME: dir,
      GEMINI_API_KEY: "fake-gemini-key",
      GOOGLE_GEMINI_BASE_URL: options.baseUrl,
      GEMINI_CLI_TRUST_WORKSPACE: "true",
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
