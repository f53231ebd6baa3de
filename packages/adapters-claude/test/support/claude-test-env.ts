import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryRawEventSink, type MemoryRawEventSink } from "@skein/adapter-kit/testing";
import {
  type FakeMessagesServer,
  type FakeMessagesServerOptions,
  startFakeMessagesServer,
} from "@skein/fake-models";
import type { ClaudeConfig } from "../../src/config.ts";

export type ClaudeTestEnv = {
  server: FakeMessagesServer;
  config: ClaudeConfig;
  cwd: string;
  rawLog: MemoryRawEventSink;
  /** Closes the fake server and removes the temp dirs (after the runtime under test closed). */
  cleanup(): Promise<void>;
};

/** A fake model server, a temp CLAUDE_CONFIG_DIR and a temp cwd: what every Claude harness needs. */
export async function claudeTestEnv(
  options: FakeMessagesServerOptions = {},
): Promise<ClaudeTestEnv> {
  const server = await startFakeMessagesServer(options);
  const configDir = mkdtempSync(join(tmpdir(), "skein-claude-config-"));
  const cwd = mkdtempSync(join(tmpdir(), "skein-claude-cwd-"));
  return {
    server,
    config: { configDir, baseUrl: server.url, apiKey: "test-key" },
    cwd,
    rawLog: createMemoryRawEventSink(),
    async cleanup() {
      await server.close();
      rmSync(configDir, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}
