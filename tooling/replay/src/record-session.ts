import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryRawEventSink } from "@skein/adapter-kit/testing";
import { createClaudeAdapter } from "@skein/adapters-claude";
import { createCodexAdapter } from "@skein/adapters-codex";
import type { ProviderAdapter, RawFrame, RuntimeEvent } from "@skein/domain/provider";
import {
  type AnthropicReply,
  anthropicBashReply,
  anthropicErrorReply,
  anthropicRequestText,
  anthropicSlowTextReply,
  anthropicTextReply,
  conversationText,
  createCodexTestHome,
  execCommandReply,
  type FakeReply,
  httpErrorReply,
  responsesSlowTextReply,
  responsesTextReply,
  startFakeMessagesServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { normalizeEvents } from "./normalize.ts";
import { driveScenario } from "./drive-scenario.ts";
import type { Scenario, ScriptedReply } from "./scenarios.ts";

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
  server.enqueue(...scenario.replies.map((r) => responsesReply(r, cwd)));
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
  // Conditional replies answer whichever request matches them; the rest go in order.
  const conditional = scenario.replies.flatMap((r) =>
    r.kind === "text" && r.onlyIf ? [{ reply: anthropicTextReply(r.text), onlyIf: r.onlyIf }] : [],
  );
  const server = await startFakeMessagesServer({
    respond: (request) =>
      conditional.find((c) => holds(c.onlyIf, anthropicRequestText(request)))?.reply,
  });
  server.enqueue(
    ...scenario.replies.flatMap((r) =>
      r.kind === "text" && r.onlyIf ? [] : [anthropicReply(r, cwd)],
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

function holds(onlyIf: { has: string[]; lacks: string[] }, conversation: string): boolean {
  return (
    onlyIf.has.every((m) => conversation.includes(m)) &&
    !onlyIf.lacks.some((m) => conversation.includes(m))
  );
}

function responsesReply(r: ScriptedReply, cwd: string): FakeReply {
  switch (r.kind) {
    case "text": {
      const { onlyIf } = r;
      const reply = responsesTextReply(r.text);
      return onlyIf ? { ...reply, when: (body) => holds(onlyIf, conversationText(body)) } : reply;
    }
    case "slow-text":
      return responsesSlowTextReply(r.pieces, r.pauseMs);
    case "command":
      return execCommandReply(r.command(cwd));
    case "http-error":
      return httpErrorReply(r.status, r.message);
  }
}

function anthropicReply(r: ScriptedReply, cwd: string): AnthropicReply {
  switch (r.kind) {
    case "text":
      return anthropicTextReply(r.text);
    case "slow-text":
      // The fake streams a character at a time: spread the pieces' pauses over the characters.
      return anthropicSlowTextReply(
        r.pieces.join(""),
        Math.ceil((r.pauseMs * r.pieces.length) / r.pieces.join("").length),
      );
    case "command":
      return anthropicBashReply(r.command(cwd));
    case "http-error":
      return anthropicErrorReply(r.status, r.message, { shouldRetry: false });
  }
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
    const events: RuntimeEvent[] = await driveScenario(session, scenario, cwd);
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
