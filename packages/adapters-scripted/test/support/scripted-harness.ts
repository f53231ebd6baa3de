import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeMessagesServer, startFakeMessagesServer } from "@skein/fake-models";

export type ScriptedHarness = {
  server: FakeMessagesServer;
  /** The agent's environment: its model is the fake server, its threads a private folder. */
  env: Record<string, string>;
  cwd: string;
  dispose(): Promise<void>;
};

/** The scripted agent's world for one test: a fake Anthropic server, a private home and cwd. */
export async function createScriptedHarness(): Promise<ScriptedHarness> {
  const server = await startFakeMessagesServer();
  const home = await mkdtemp(join(tmpdir(), "skein-scripted-home-"));
  const cwd = await mkdtemp(join(tmpdir(), "skein-scripted-cwd-"));
  return {
    server,
    env: {
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: "test-key",
      SCRIPTED_AGENT_HOME: home,
    },
    cwd,
    async dispose() {
      await server.close();
      await rm(home, { recursive: true, force: true });
      await rm(cwd, { recursive: true, force: true });
    },
  };
}
