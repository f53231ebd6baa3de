import type {
  ProviderAdapter,
  RuntimeEvent,
  ThreadSettings,
  TurnHandle,
} from "@skein/domain/provider";
import { afterEach } from "vitest";
import { createClaudeAdapter } from "../../src/claude-adapter.ts";
import { ClaudeProviderSession } from "../../src/claude-provider-session.ts";
import type { MemoryRawEventSink } from "@skein/adapter-kit/testing";
import type { FakeMessagesServer, FakeMessagesServerOptions } from "@skein/fake-models";
import { claudeTestEnv } from "./claude-test-env.ts";

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
  const env = await claudeTestEnv(options);
  const { server, cwd, rawLog } = env;
  const adapter = createClaudeAdapter(env.config);
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
      await env.cleanup();
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
