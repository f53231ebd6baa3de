import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryRawEventSink } from "@skein/adapter-kit/testing";
import { createClaudeAdapter } from "@skein/adapters-claude";
import { createCodexAdapter } from "@skein/adapters-codex";
import type { ProviderAdapter, RawFrame, RuntimeEvent } from "@skein/domain/provider";
import {
  anthropicBashReply,
  anthropicErrorReply,
  anthropicTextReply,
  createCodexTestHome,
  execCommandReply,
  httpErrorReply,
  responsesTextReply,
  startFakeMessagesServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { normalizeEvents } from "./normalize.ts";
import type { Scenario } from "./scenarios.ts";

export type Provider = "codex" | "claude";

/** One recorded session: its raw frames (with their log ids) and what the adapter emitted live. */
export type Fixture = {
  provider: Provider;
  scenario: string;
  runtimeVersion: string | null;
  frames: Array<RawFrame & { rawEventId: string }>;
  events: RuntimeEvent[];
};

type Rig = { adapter: ProviderAdapter; dispose(): Promise<void> };

async function codexRig(scenario: Scenario, cwd: string): Promise<Rig> {
  const server = await startFakeResponsesServer();
  server.enqueue(
    ...scenario.replies.map((r) =>
      r.kind === "text"
        ? responsesTextReply(r.text)
        : r.kind === "command"
          ? execCommandReply(r.command(cwd))
          : httpErrorReply(r.status, r.message),
    ),
  );
  const home = await createCodexTestHome({ baseUrl: server.url, model: "gpt-5.5" });
  const adapter = createCodexAdapter({ codexHome: home.dir, env: { RUST_LOG: "error" } });
  return {
    adapter,
    async dispose() {
      await server.close();
      await home.remove();
    },
  };
}

async function claudeRig(scenario: Scenario, cwd: string): Promise<Rig> {
  const server = await startFakeMessagesServer();
  server.enqueue(
    ...scenario.replies.map((r) =>
      r.kind === "text"
        ? anthropicTextReply(r.text)
        : r.kind === "command"
          ? anthropicBashReply(r.command(cwd))
          : anthropicErrorReply(r.status, r.message, { shouldRetry: false }),
    ),
  );
  const configDir = mkdtempSync(join(tmpdir(), "skein-replay-claude-"));
  const adapter = createClaudeAdapter({ configDir, baseUrl: server.url, apiKey: "test-key" });
  return {
    adapter,
    async dispose() {
      await server.close();
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a scenario on the real runtime (real `codex app-server` or Claude SDK, each on its fake
 * model server) through the adapter as the orchestrator drives it, keeping every raw frame and
 * every runtime event.
 */
export async function recordSession(provider: Provider, scenario: Scenario): Promise<Fixture> {
  const cwd = mkdtempSync(join(tmpdir(), "skein-replay-cwd-"));
  const rig = provider === "codex" ? await codexRig(scenario, cwd) : await claudeRig(scenario, cwd);
  const sink = createMemoryRawEventSink();
  const session = await rig.adapter.openSession({
    providerSessionId: `pss_fixture_${scenario.name.replaceAll("-", "_")}`,
    cwd,
    rawLog: sink,
  });
  try {
    const settings = { cwd, runtimeMode: "approval-required" as const };
    const { nativeThreadRef } = await session.startThread(settings);
    const handle = session.startTurn(nativeThreadRef, { text: scenario.prompt }, { settings });
    const events: RuntimeEvent[] = [];
    for await (const event of handle.events) {
      events.push(event);
      if (event.type === "request.opened") {
        await session.respondToRequest(event.requestRef, { decision: scenario.answer });
      }
    }
    return {
      provider,
      scenario: scenario.name,
      runtimeVersion: (await rig.adapter.status()).version,
      frames: sink.frames,
      events: normalizeEvents(provider, events),
    };
  } finally {
    await session.close();
    await rig.dispose();
    rmSync(cwd, { recursive: true, force: true });
  }
}
