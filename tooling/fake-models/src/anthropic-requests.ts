/**
 * Recorded requests of the fake Anthropic server, and helpers that read conversation content out
 * of them so tests can assert what history a client really sent.
 */

export type AnthropicRequestKind =
  /** A streamed `/v1/messages` call with tools: a main-loop or subagent model turn. */
  | "conversation"
  /** Any other `/v1/messages` call (non-streaming or tool-less: titles, summaries, probes). */
  | "auxiliary"
  | "count_tokens"
  | "other";

export type AnthropicRecordedRequest = {
  /** Position among all requests this server received, from 0. */
  index: number;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (`undefined` when empty or not JSON). */
  body: unknown;
  kind: AnthropicRequestKind;
  /** Who is talking: the main loop or a subagent (Claude Code marks subagent system prompts). */
  agent: "main" | "subagent";
  receivedAt: number;
  /** Set when the client closed the connection before the scripted response was fully written. */
  closedByClient: boolean;
};

export type AnthropicContentBlock = { type: string; [key: string]: unknown };
export type AnthropicRecordedMessage = { role: string; content: AnthropicContentBlock[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function toBlocks(content: unknown): AnthropicContentBlock[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(
    (b): b is AnthropicContentBlock => isRecord(b) && typeof b.type === "string",
  );
}

export function classifyAnthropicRequest(
  method: string,
  path: string,
  body: unknown,
): AnthropicRequestKind {
  const route = path.split("?")[0] ?? "";
  if (route.endsWith("/v1/messages/count_tokens")) return "count_tokens";
  if (method !== "POST" || !route.endsWith("/v1/messages")) return "other";
  const streamed = isRecord(body) && body.stream === true;
  const withTools = isRecord(body) && Array.isArray(body.tools) && body.tools.length > 0;
  return streamed && withTools ? "conversation" : "auxiliary";
}

const SUBAGENT_MARK = "cc_is_subagent=true";

export function anthropicAgentOf(body: unknown): "main" | "subagent" {
  if (!isRecord(body)) return "main";
  const system = body.system;
  const texts =
    typeof system === "string"
      ? [system]
      : Array.isArray(system)
        ? system.filter(isRecord).map((b) => (typeof b.text === "string" ? b.text : ""))
        : [];
  return texts.some((t) => t.includes(SUBAGENT_MARK)) ? "subagent" : "main";
}

/** The `messages` array of a request, normalized so string contents become one text block. */
export function anthropicMessages(request: AnthropicRecordedRequest): AnthropicRecordedMessage[] {
  const body = request.body;
  if (!isRecord(body) || !Array.isArray(body.messages)) return [];
  return body.messages.filter(isRecord).map((m) => ({
    role: typeof m.role === "string" ? m.role : "unknown",
    content: toBlocks(m.content),
  }));
}

function blockText(block: AnthropicContentBlock): string {
  if (block.type === "text" && typeof block.text === "string") return block.text;
  if (block.type === "tool_result") return toBlocks(block.content).map(blockText).join("\n");
  if (block.type === "tool_use") return JSON.stringify(block.input ?? {});
  if (block.type === "thinking" && typeof block.thinking === "string") return block.thinking;
  return "";
}

/** Every text the request carries in `messages` (user, assistant, tool results), joined. */
export function anthropicRequestText(request: AnthropicRecordedRequest): string {
  return anthropicMessages(request)
    .flatMap((m) => m.content.map(blockText))
    .join("\n");
}

const SYSTEM_REMINDER = /^\s*<system-reminder>/;

/** Text blocks the user typed, in order (CLI-injected `<system-reminder>` blocks left out). */
export function anthropicUserTexts(request: AnthropicRecordedRequest): string[] {
  return anthropicMessages(request)
    .filter((m) => m.role === "user")
    .flatMap((m) => m.content)
    .filter((b) => b.type === "text" && typeof b.text === "string" && !SYSTEM_REMINDER.test(b.text))
    .map((b) => String(b.text));
}

/**
 * The text of the request's last user message (its text blocks, CLI reminders left out, joined
 * with newlines): the prompt the request answers. Claude Code merges consecutive user messages,
 * so a prompt kept from a failed turn shows up here next to the new one.
 */
export function anthropicLatestUserText(request: AnthropicRecordedRequest): string {
  const last = anthropicMessages(request).findLast((m) => m.role === "user");
  return (last?.content ?? [])
    .filter((b) => b.type === "text" && typeof b.text === "string" && !SYSTEM_REMINDER.test(b.text))
    .map((b) => String(b.text))
    .join("\n");
}

/** Assistant text blocks, in order. */
export function anthropicAssistantTexts(request: AnthropicRecordedRequest): string[] {
  return anthropicMessages(request)
    .filter((m) => m.role === "assistant")
    .flatMap((m) => m.content)
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => String(b.text));
}

export type AnthropicToolResult = { toolUseId: string; text: string; isError: boolean };

export function anthropicToolResults(request: AnthropicRecordedRequest): AnthropicToolResult[] {
  return anthropicMessages(request)
    .flatMap((m) => m.content)
    .filter((b) => b.type === "tool_result")
    .map((b) => ({
      toolUseId: typeof b.tool_use_id === "string" ? b.tool_use_id : "",
      text: blockText(b),
      isError: b.is_error === true,
    }));
}

/** Tool names the request offers the model. */
export function anthropicToolNames(request: AnthropicRecordedRequest): string[] {
  const body = request.body;
  if (!isRecord(body) || !Array.isArray(body.tools)) return [];
  return body.tools.filter(isRecord).flatMap((t) => (typeof t.name === "string" ? [t.name] : []));
}
