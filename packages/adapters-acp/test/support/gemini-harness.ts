import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createGeminiTestHome,
  type FakeGeminiServer,
  type GeminiRecordedRequest,
  type GeminiReply,
  geminiContents,
  geminiErrorReply,
  geminiFunctionResponseText,
  geminiPartText,
  geminiShellReply,
  geminiTextReply,
  startFakeGeminiServer,
} from "@skein/fake-models";
import type { ContractReply, ConversationMessage } from "@skein/provider-contract";
import { createGeminiAdapter } from "../../src/gemini.ts";

export function geminiReply(reply: ContractReply): GeminiReply {
  switch (reply.kind) {
    case "text":
      return geminiTextReply(reply.text);
    case "slow-text": {
      const text = reply.chunks.join("");
      const chunkSize = Math.max(1, Math.ceil(text.length / Math.max(1, reply.chunks.length)));
      return geminiTextReply(text, { chunkSize, chunkDelayMs: reply.delayMs });
    }
    case "command":
      return geminiShellReply(reply.command);
    case "http-error":
      return geminiErrorReply(reply.status, reply.message);
  }
}

/** Gemini CLI's own context (`<session_context>`…) that it puts ahead of the first prompt. */
const INJECTED_CONTEXT = /^\s*<session_context>/;

/** One recorded conversation request as the contract's neutral conversation. */
export function geminiConversationOf(request: GeminiRecordedRequest): ConversationMessage[] {
  return geminiContents(request).flatMap((content) =>
    content.parts.flatMap((part): ConversationMessage[] => {
      const response = geminiFunctionResponseText(part);
      if (response !== null) return [{ role: "tool", text: response }];
      const text = geminiPartText(part);
      if (text === null || INJECTED_CONTEXT.test(text)) return [];
      return [{ role: content.role === "model" ? "assistant" : "user", text }];
    }),
  );
}

export type GeminiHarness = {
  server: FakeGeminiServer;
  adapter: ReturnType<typeof createGeminiAdapter>;
  cwd: string;
  env: Record<string, string>;
  dispose(): Promise<void>;
};

/** The Gemini adapter on real Gemini CLI, pointed at a fake Gemini API, with its own HOME and cwd. */
export async function createGeminiHarness(): Promise<GeminiHarness> {
  const server = await startFakeGeminiServer();
  const home = await createGeminiTestHome({ baseUrl: server.url });
  const cwd = await mkdtemp(join(tmpdir(), "skein-gemini-cwd-"));
  const adapter = createGeminiAdapter({ env: home.env });
  return {
    server,
    adapter,
    cwd,
    env: home.env,
    async dispose() {
      await server.close();
      await home.remove();
      await rm(cwd, { recursive: true, force: true });
    },
  };
}
