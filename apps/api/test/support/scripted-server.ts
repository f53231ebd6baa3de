import type { RawLogReader } from "@skein/db";
import { createScriptedProvider, type ScriptedProvider } from "@skein/scripted-provider";
import { createOrchestrator, type Orchestrator } from "../../src/orchestrator/index.ts";
import { startTestServer, type TestServer } from "./test-server.ts";

export type ScriptedTestServer = TestServer & {
  orchestrator: Orchestrator;
  codex: ScriptedProvider;
  claude: ScriptedProvider;
  /** A thread in a new "Demo" project over the server's workspace. */
  newThread(title?: string): Promise<string>;
  /** Sends "go" on `threadId`; Codex's reply streams in `chunks` deltas, `delayMs` apart. */
  sendStreamed(threadId: string, chunks?: number, delayMs?: number): Promise<string>;
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
  return {
    ...server,
    codex,
    claude,
    async newThread(title = "Main") {
      const { projectId } = await server.client.project.create.mutate({
        name: "Demo",
        workspaceRoot: server.workspaceDir,
      });
      const { threadId } = await server.client.thread.create.mutate({ projectId, title });
      return threadId;
    },
    async sendStreamed(threadId, chunks = 3, delayMs = 0) {
      codex.enqueue([{ type: "text", text: "y".repeat(chunks * 8), chunks, delayMs }]);
      const { runId } = await server.client.thread.sendMessage.mutate({ threadId, text: "go" });
      return runId;
    },
  };
}
