import type { AnthropicReplyBlock, AnthropicMessageReply } from "./anthropic-script.ts";

/** One Anthropic streaming event (`event: <type>` + JSON `data`). */
export type AnthropicStreamEvent = { type: string; [key: string]: unknown };

export type AnthropicMessageIdentity = { messageId: string; model: string; toolUseIds: string[] };

function chunks(text: string, size: number | undefined): string[] {
  if (size === undefined || size <= 0 || text.length <= size) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export function stopReasonOf(message: AnthropicMessageReply): string {
  if (message.stopReason !== undefined) return message.stopReason;
  return message.blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
}

function usageOf(message: AnthropicMessageReply) {
  return {
    input_tokens: message.usage?.inputTokens ?? 12,
    output_tokens: message.usage?.outputTokens ?? 7,
  };
}

function completeBlock(block: AnthropicReplyBlock, toolUseId: string): Record<string, unknown> {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "thinking":
      return { type: "thinking", thinking: block.thinking, signature: block.signature ?? "sig" };
    case "tool_use":
      return { type: "tool_use", id: toolUseId, name: block.name, input: block.input };
  }
}

/**
 * The SSE events of one scripted message, in wire order. Text and thinking deltas are split per
 * `chunkSize`; the caller sleeps `chunkDelayMs` between events that carry content.
 */
export function anthropicStreamEvents(
  message: AnthropicMessageReply,
  identity: AnthropicMessageIdentity,
): AnthropicStreamEvent[] {
  const usage = usageOf(message);
  const events: AnthropicStreamEvent[] = [
    {
      type: "message_start",
      message: {
        id: identity.messageId,
        type: "message",
        role: "assistant",
        model: identity.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
      },
    },
  ];
  let toolIndex = 0;
  message.blocks.forEach((block, index) => {
    if (block.type === "text") {
      events.push({
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      for (const text of chunks(block.text, message.chunkSize)) {
        events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
      }
    } else if (block.type === "thinking") {
      events.push({
        type: "content_block_start",
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      });
      for (const thinking of chunks(block.thinking, message.chunkSize)) {
        events.push({
          type: "content_block_delta",
          index,
          delta: { type: "thinking_delta", thinking },
        });
      }
      events.push({
        type: "content_block_delta",
        index,
        delta: { type: "signature_delta", signature: block.signature ?? "sig" },
      });
    } else {
      const id = identity.toolUseIds[toolIndex++] ?? `toolu_${index}`;
      events.push({
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id, name: block.name, input: {} },
      });
      events.push({
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    events.push({ type: "content_block_stop", index });
  });
  events.push({
    type: "message_delta",
    delta: { stop_reason: stopReasonOf(message), stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  events.push({ type: "message_stop" });
  return events;
}

/** The same message as a non-streaming Messages API response body. */
export function anthropicMessageJson(
  message: AnthropicMessageReply,
  identity: AnthropicMessageIdentity,
) {
  let toolIndex = 0;
  return {
    id: identity.messageId,
    type: "message",
    role: "assistant",
    model: identity.model,
    content: message.blocks.map((block, index) =>
      completeBlock(
        block,
        block.type === "tool_use" ? (identity.toolUseIds[toolIndex++] ?? `toolu_${index}`) : "",
      ),
    ),
    stop_reason: stopReasonOf(message),
    stop_sequence: null,
    usage: usageOf(message),
  };
}

export function encodeAnthropicSse(event: AnthropicStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
