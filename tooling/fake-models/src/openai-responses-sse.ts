import type { FakeOutputItem, FakeReply, FakeUsage } from "./openai-responses-replies.ts";

/** One Server-Sent Event of the Responses API stream; `type` doubles as the SSE event name. */
export type ResponsesStreamEvent = { type: string } & Record<string, unknown>;

export function encodeSseEvent(event: ResponsesStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * Expands a scripted reply into the event sequence the real API streams: created, then per item
 * added → deltas → done, then completed with usage. Codex builds its items from `output_item.done`
 * and uses the deltas only for live streaming, so both must agree.
 */
export function responseEvents(
  reply: FakeReply & { kind: "response" },
  responseId: string,
): ResponsesStreamEvent[] {
  const events: ResponsesStreamEvent[] = [
    { type: "response.created", response: { id: responseId, status: "in_progress" } },
  ];
  reply.items.forEach((item, outputIndex) => {
    events.push(...itemEvents(item, `${responseId}_item_${outputIndex}`, outputIndex));
  });
  events.push({
    type: "response.completed",
    response: { id: responseId, status: "completed", usage: usageJson(reply.usage) },
  });
  return events;
}

function itemEvents(item: FakeOutputItem, id: string, outputIndex: number): ResponsesStreamEvent[] {
  switch (item.type) {
    case "message": {
      const chunks = item.chunks ?? splitWords(item.text);
      const done = {
        type: "message",
        id,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: item.text, annotations: [] }],
      };
      return [
        {
          type: "response.output_item.added",
          output_index: outputIndex,
          item: { ...done, status: "in_progress", content: [] },
        },
        ...chunks.map((delta) => ({
          type: "response.output_text.delta",
          item_id: id,
          output_index: outputIndex,
          content_index: 0,
          delta,
        })),
        { type: "response.output_item.done", output_index: outputIndex, item: done },
      ];
    }
    case "reasoning": {
      const done = {
        type: "reasoning",
        id,
        summary: item.summary.map((text) => ({ type: "summary_text", text })),
      };
      return [
        {
          type: "response.output_item.added",
          output_index: outputIndex,
          item: { ...done, summary: [] },
        },
        ...item.summary.map((delta, summaryIndex) => ({
          type: "response.reasoning_summary_text.delta",
          item_id: id,
          output_index: outputIndex,
          summary_index: summaryIndex,
          delta,
        })),
        { type: "response.output_item.done", output_index: outputIndex, item: done },
      ];
    }
    case "function_call": {
      const done = {
        type: "function_call",
        id,
        call_id: item.callId ?? `call_${id}`,
        name: item.name,
        ...(item.namespace ? { namespace: item.namespace } : {}),
        arguments: JSON.stringify(item.arguments),
        status: "completed",
      };
      return [
        {
          type: "response.output_item.added",
          output_index: outputIndex,
          item: { ...done, arguments: "", status: "in_progress" },
        },
        { type: "response.output_item.done", output_index: outputIndex, item: done },
      ];
    }
    case "custom_tool_call": {
      const done = {
        type: "custom_tool_call",
        id,
        call_id: item.callId ?? `call_${id}`,
        name: item.name,
        input: item.input,
        status: "completed",
      };
      return [
        {
          type: "response.output_item.added",
          output_index: outputIndex,
          item: { ...done, input: "", status: "in_progress" },
        },
        { type: "response.output_item.done", output_index: outputIndex, item: done },
      ];
    }
  }
}

function splitWords(text: string): string[] {
  const parts = text.match(/\S+\s*|\s+/g);
  return parts ?? [text];
}

function usageJson(usage: Partial<FakeUsage> | undefined): Record<string, unknown> {
  const input = usage?.inputTokens ?? 10;
  const output = usage?.outputTokens ?? 5;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage?.cachedInputTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage?.reasoningOutputTokens ?? 0 },
    total_tokens: input + output,
  };
}
