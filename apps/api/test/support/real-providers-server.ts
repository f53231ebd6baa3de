import { rmSync } from "node:fs";
import { createClaudeAdapter } from "@skein/adapters-claude";
import { createCodexAdapter } from "@skein/adapters-codex";
import {
  type CodexTestHome,
  createCodexTestHome,
  type FakeMessagesServer,
  type FakeResponsesServer,
  startFakeMessagesServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import type { GitHubSettings } from "../../src/orchestrator/git/git-finish-commands.ts";
import { createOrchestrator, type Orchestrator } from "../../src/orchestrator/index.ts";
import { startTestServer, type TestServer, tempDir } from "./test-server.ts";

export type RealProvidersServer = TestServer & {
  orchestrator: Orchestrator;
  /** The fake Responses API behind Skein's Codex provider. */
  openai: FakeResponsesServer;
  /** The fake Messages API behind Skein's Claude provider. */
  anthropic: FakeMessagesServer;
};

/**
 * The HTTP API over the real orchestrator with both real runtimes as its providers: the
 * `codex app-server` binary and the Claude Agent SDK's `claude`, each on its own fake model.
 */
export async function startRealProvidersServer(
  options: { token?: string; github?: GitHubSettings } = {},
): Promise<RealProvidersServer> {
  const { github, ...serverOptions } = options;
  const openai = await startFakeResponsesServer();
  const anthropic = await startFakeMessagesServer();
  let home: CodexTestHome | null = null;
  const claudeConfigDir = tempDir("skein-claude-config-");
  try {
    home = await createCodexTestHome({ baseUrl: openai.url, model: "gpt-5.5" });
    const codex = createCodexAdapter({ codexHome: home.dir, env: { RUST_LOG: "error" } });
    const claude = createClaudeAdapter({
      configDir: claudeConfigDir,
      baseUrl: anthropic.url,
      apiKey: "test",
    });
    const t = await startTestServer({
      ...serverOptions,
      orchestrator: (store, dataDir) =>
        createOrchestrator({
          store,
          adapters: { codex, claude },
          dataDir,
          sessionIdleMs: 0,
          ...(github ? { github } : {}),
        }),
    });
    const codexHome = home;
    return {
      ...t,
      openai,
      anthropic,
      async close() {
        await t.close();
        await openai.close();
        await anthropic.close();
        await codexHome.remove();
        rmSync(claudeConfigDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await openai.close();
    await anthropic.close();
    await home?.remove();
    rmSync(claudeConfigDir, { recursive: true, force: true });
    throw error;
  }
}
