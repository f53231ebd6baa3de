/**
 * The contract's neutral replies and conversations in the fake Anthropic server's terms, shared by
 * every harness whose agent talks to Anthropic's Messages API (the Agent SDK, claude-agent-acp).
 */
import {
  type AnthropicContentBlock,
  type AnthropicRecordedRequest,
  type AnthropicReply,
  anthropicBashReply,
  anthropicErrorReply,
  anthropicMessages,
  anthropicTextReply,
  type FakeMessagesServer,
} from "@skein/fake-models";
import type { ContractReply, ConversationMessage, ProviderContractHarness } from "./harness.ts";

export function anthropicContractReply(reply: ContractReply): AnthropicReply {
  switch (reply.kind) {
    case "text":
      return anthropicTextReply(reply.text);
    case "slow-text": {
      // The fake splits text into equal-size chunks; aim for the same number of chunks.
      const text = reply.chunks.join("");
      const chunkSize = Math.max(1, Math.ceil(text.length / Math.max(1, reply.chunks.length)));
      return anthropicTextReply(text, { chunkSize, chunkDelayMs: reply.delayMs });
    }
    case "command":
      return anthropicBashReply(reply.command);
    case "http-error":
      // Claude Code retries 5xx with back-off unless told not to.
      return anthropicErrorReply(reply.status, reply.message, { shouldRetry: false });
  }
}

/** Claude Code's own `<system-reminder>` blocks, prepended to the first user message. */
const INJECTED_CONTEXT = /^\s*<system-reminder>/;

function blockText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b: unknown) =>
      typeof b === "object" && b !== null && "text" in b && typeof b.text === "string"
        ? b.text
        : "",
    )
    .join("\n");
}

function messageOf(role: "user" | "assistant", block: AnthropicContentBlock) {
  if (block.type === "tool_result")
    return { role: "tool" as const, text: blockText(block.content) };
  if (block.type !== "text" || typeof block.text !== "string") return null;
  return INJECTED_CONTEXT.test(block.text) ? null : { role, text: block.text };
}

/** One recorded `/v1/messages` request as the contract's neutral conversation. */
export function anthropicConversation(request: AnthropicRecordedRequest): ConversationMessage[] {
  return anthropicMessages(request).flatMap((message) => {
    const role = message.role;
    if (role !== "user" && role !== "assistant") return [];
    return message.content.flatMap((block) => messageOf(role, block) ?? []);
  });
}

/** A contract harness for an adapter whose agent talks to the fake Anthropic server. */
export function anthropicContractHarness(parts: {
  adapter: ProviderContractHarness["adapter"];
  cwd: string;
  server: FakeMessagesServer;
  dispose(): Promise<void>;
}): ProviderContractHarness {
  return {
    adapter: parts.adapter,
    cwd: parts.cwd,
    script: (...replies) => parts.server.enqueue(...replies.map(anthropicContractReply)),
    // Sub-agents' requests are the agent's own business; the contract reads the main loop.
    recordedConversationRequests: () =>
      parts.server
        .conversationRequests()
        .filter((r) => r.agent === "main")
        .map(anthropicConversation),
    dispose: () => parts.dispose(),
  };
}
