// @ts-check
import { EventSourceParserStream } from "eventsource-parser/stream";

/** The one tool the agent offers its model: a shell command in the thread's folder. */
export const TOOLS = [
  {
    name: "Bash",
    description: "Runs a shell command in the thread's folder and returns its output.",
    input_schema: {
      type: "object",
      properties: { command: { type: "string" } },
      required: ["command"],
    },
  },
];

/** The model service refused or failed the request: its HTTP status and its own words. */
export class ModelError extends Error {
  /** @param {number} status @param {string} message @param {string | null} [retryAfter] */
  constructor(status, message, retryAfter = null) {
    super(message);
    this.name = "ModelError";
    this.status = status;
    /** The service's `retry-after` header (seconds), as it sent it. */
    this.retryAfter = retryAfter;
  }
}

/**
 * @typedef {{ type: string, text?: string, id?: string, name?: string, input?: unknown, json?: string }} Block
 * @typedef {{ url: string, apiKey: string, model: string, messages: unknown[], signal: AbortSignal }} ModelCall
 */

/**
 * The words of an Anthropic error body (`{"error":{"message":…}}`), else the body itself.
 * @param {string} body
 */
function errorWords(body) {
  try {
    const message = JSON.parse(body)?.error?.message;
    if (typeof message === "string") return message;
  } catch {}
  return body.slice(0, 500);
}

/**
 * One streamed Messages API call. Content blocks fill `blocks` as they arrive, so a caller whose
 * call was aborted still has what the model had said; `onText` sees each text delta.
 * @param {ModelCall} call
 * @param {Block[]} blocks
 * @param {(index: number, text: string) => void} onText
 * @returns {Promise<string | null>} the stop reason
 */
export async function streamMessage(call, blocks, onText) {
  const response = await fetch(`${call.url.replace(/\/$/, "")}/v1/messages`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "anthropic-version": "2023-06-01",
      "x-api-key": call.apiKey,
    },
    body: JSON.stringify({
      model: call.model,
      max_tokens: 4096,
      stream: true,
      tools: TOOLS,
      messages: call.messages,
    }),
    signal: call.signal,
  });
  if (!response.ok || !response.body) {
    const words = errorWords(await response.text().catch(() => ""));
    throw new ModelError(response.status, words, response.headers.get("retry-after"));
  }
  let stopReason = null;
  const events = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream());
  for await (const { data } of events) {
    const event = JSON.parse(data);
    if (event.type === "content_block_start") {
      blocks[event.index] = { ...event.content_block, json: "" };
    } else if (event.type === "content_block_delta") {
      const block = blocks[event.index];
      if (!block) continue;
      if (event.delta.type === "text_delta") {
        block.text = (block.text ?? "") + event.delta.text;
        onText(event.index, event.delta.text);
      } else if (event.delta.type === "input_json_delta") {
        block.json += event.delta.partial_json;
      }
    } else if (event.type === "message_delta") {
      stopReason = event.delta?.stop_reason ?? stopReason;
    } else if (event.type === "error") {
      throw new ModelError(500, event.error?.message ?? "the model stream failed");
    }
  }
  return stopReason;
}

/**
 * A block as the conversation keeps it: a tool call's streamed JSON parsed into its input.
 * @param {Block} block
 */
export function settledBlock(block) {
  const { json, ...rest } = block;
  if (rest.type !== "tool_use") return rest;
  return { ...rest, input: json ? JSON.parse(json) : (rest.input ?? {}) };
}
