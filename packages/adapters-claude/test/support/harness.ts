import type { FakeMessagesServer, FakeMessagesServerOptions } from "@skein/fake-models";
import { ClaudeRuntime, type ClaudeSessionSettings } from "../../src/claude-runtime.ts";
import type { ClaudeTurn, SdkEnvelope } from "../../src/claude-turn.ts";
import type { ClaudeConfig } from "../../src/config.ts";
import type { MemoryRawEventSink } from "@skein/adapter-kit/testing";
import type { ClaudeTurnOutcome } from "../../src/turn-outcome.ts";
import { claudeTestEnv } from "./claude-test-env.ts";

export type Harness = {
  server: FakeMessagesServer;
  runtime: ClaudeRuntime;
  rawLog: MemoryRawEventSink;
  config: ClaudeConfig;
  /** Settings for sessions in this harness: a temp cwd. */
  settings: ClaudeSessionSettings;
  dispose(): Promise<void>;
};

/** A fake model server, a temp CLAUDE_CONFIG_DIR and cwd, and a runtime wired to them. */
export async function createHarness(
  options: FakeMessagesServerOptions = {},
  settings: Partial<ClaudeSessionSettings> = {},
): Promise<Harness> {
  const env = await claudeTestEnv(options);
  const { server, config, cwd, rawLog } = env;
  const runtime = new ClaudeRuntime({ config, rawLog, providerSessionId: "pss_test" });
  return {
    server,
    runtime,
    rawLog,
    config,
    settings: { cwd, ...settings },
    async dispose() {
      await runtime.close();
      await env.cleanup();
    },
  };
}

/** Reads a turn to its end. */
export async function runTurn(
  turn: ClaudeTurn,
): Promise<{ messages: SdkEnvelope[]; outcome: ClaudeTurnOutcome }> {
  const messages: SdkEnvelope[] = [];
  for await (const envelope of turn.messages) messages.push(envelope);
  return { messages, outcome: await turn.outcome };
}

/** Text of the turn's streamed `text_delta`s, joined. */
export function streamedText(messages: SdkEnvelope[]): string {
  let text = "";
  for (const { message } of messages) {
    if (message.type !== "stream_event") continue;
    const event = message.event;
    if (event.type === "content_block_delta" && event.delta.type === "text_delta") {
      text += event.delta.text;
    }
  }
  return text;
}

/** Text blocks of the turn's main-thread assistant messages, joined. */
export function assistantText(messages: SdkEnvelope[]): string {
  return messages
    .flatMap(({ message }) =>
      message.type === "assistant" && message.parent_tool_use_id === null
        ? message.message.content
        : [],
    )
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("");
}
