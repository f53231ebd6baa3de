import type { RawLogReader } from "@skein/db";
import { createScriptedProvider, type ScriptedProvider } from "@skein/scripted-provider";
import { createOrchestrator, type Orchestrator } from "../../src/orchestrator/index.ts";
import { startTestServer, type TestServer } from "./test-server.ts";

export type ScriptedTestServer = TestServer & {
  orchestrator: Orchestrator;
  codex: ScriptedProvider;
  claude: ScriptedProvider;
};

/** The real orchestrator behind a real HTTP server, with in-memory scripted providers. */
export async function startScriptedServer(
  options: { token?: string; maxReplayEvents?: number; rawLog?: RawLogReader } = {},
): Promise<ScriptedTestServer> {
  const codex = createScriptedProvider({ provider: "codex" });
  const claude = createScriptedProvider({ provider: "claude" });
  const server = await startTestServer({
    ...options,
    orchestrator: (store, dataDir) =>
      createOrchestrator({ store, adapters: { codex, claude }, dataDir, sessionIdleMs: 0 }),
  });
  return { ...server, codex, claude };
}
