import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  ProviderAdapter,
  RuntimeEvent,
  ThreadSettings,
  TurnHandle,
} from "@skein/domain/provider";
import { afterEach } from "vitest";
import { createClaudeAdapter } from "../../src/claude-adapter.ts";
import { ClaudeProviderSession } from "../../src/claude-provider-session.ts";
import { createMemoryRawEventSink, type MemoryRawEventSink } from "@skein/adapter-kit/testing";
import {
  type FakeMessagesServer,
  type FakeMessagesServerOptions,
  startFakeMessagesServer,
} from "@skein/fake-models";

export type AdapterHarness = {
  server: FakeMessagesServer;
  adapter: ProviderAdapter;
  session: ClaudeProviderSession;
  rawLog: MemoryRawEventSink;
  settings: ThreadSettings;
  dispose(): Promise<void>;
};

/** The Claude adapter wired to a fake model server, with a temp config dir and cwd. */
export async function createAdapterHarness(
  options: FakeMessagesServerOptions = {},
): Promise<AdapterHarness> {
  const server = await startFakeMessagesServer(options);
  const configDir = mkdtempSync(join(tmpdir(), "skein-claude-config-"));
  const cwd = mkdtempSync(join(tmpdir(), "skein-claude-cwd-"));
  const rawLog = createMemoryRawEventSink();
  const adapter = createClaudeAdapter({ configDir, baseUrl: server.url, apiKey: "test-key" });
  const handle = await adapter.openSession({ providerSessionId: "pss_test", cwd, rawLog });
  if (!(handle instanceof ClaudeProviderSession)) throw new Error("unexpected session type");
  return {
    server,
    adapter,
    session: handle,
    rawLog,
    settings: { cwd, runtimeMode: "approval-required" },
    async dispose() {
      await handle.close();
      await server.close();
      rmSync(configDir, { recursive: true, force: true });
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}

/** Reads a turn's events to `turn.completed`. */
export async function collect(turn: TurnHandle): Promise<RuntimeEvent[]> {
  const events: RuntimeEvent[] = [];
  for await (const event of turn.events) events.push(event);
  return events;
}

export function completed(events: RuntimeEvent[]) {
  const last = events.at(-1);
  if (last?.type !== "turn.completed") throw new Error(`turn did not complete: ${last?.type}`);
  return last;
}

export function itemsOf(events: RuntimeEvent[], kind: string) {
  return events.filter(
    (e): e is Extract<RuntimeEvent, { type: "item.completed" }> =>
      e.type === "item.completed" && e.kind === kind,
  );
}

/** For a test file: a function that opens a harness, disposed of after each test. */
export function useAdapterHarness(): (
  options?: FakeMessagesServerOptions,
) => Promise<AdapterHarness> {
  let current: AdapterHarness | undefined;
  afterEach(async () => {
    await current?.dispose();
    current = undefined;
  });
  return async (options) => {
    current = await createAdapterHarness(options);
    return current;
  };
}
