/**
 * Scripted replies for the fake Anthropic Messages server. A reply describes one model response
 * (streamed as SSE, or as JSON for non-streaming calls) or an HTTP error.
 */

export type AnthropicReplyBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string; signature?: string }
  | { type: "tool_use"; name: string; input: Record<string, unknown>; id?: string };

export type AnthropicMessageReply = {
  kind: "message";
  blocks: AnthropicReplyBlock[];
  /** Defaults to `tool_use` when a block is a tool call, else `end_turn`. */
  stopReason?: "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "refusal";
  /** Pause between SSE chunks, so a client can observe (or interrupt) a turn mid-stream. */
  chunkDelayMs?: number;
  /** Text and thinking are split into chunks of this many characters (default: whole block). */
  chunkSize?: number;
  /** Delay before the response headers are sent. */
  headerDelayMs?: number;
  usage?: { inputTokens?: number; outputTokens?: number };
};

export type AnthropicErrorReply = {
  kind: "error";
  status: number;
  message: string;
  /** Anthropic error type, e.g. `api_error`, `overloaded_error`, `invalid_request_error`. */
  errorType?: string;
  /**
   * How many consecutive conversation requests this error answers (default 1). Clients retry 5xx,
   * so an error meant to outlast the retries must answer all of them.
   */
  times?: number;
  /** Sent as `x-should-retry`; `false` asks well-behaved clients not to retry. */
  shouldRetry?: boolean;
};

export type AnthropicReply = AnthropicMessageReply | AnthropicErrorReply;

export type AnthropicReplyOptions = Omit<AnthropicMessageReply, "kind" | "blocks">;

export function anthropicTextReply(
  text: string,
  options: AnthropicReplyOptions = {},
): AnthropicMessageReply {
  return { kind: "message", blocks: [{ type: "text", text }], ...options };
}

/** Text streamed in `chunkSize`-character chunks with `chunkDelayMs` between them. */
export function anthropicSlowTextReply(
  text: string,
  chunkDelayMs: number,
  options: Omit<AnthropicReplyOptions, "chunkDelayMs"> = {},
): AnthropicMessageReply {
  return anthropicTextReply(text, { chunkSize: 1, ...options, chunkDelayMs });
}

export function anthropicThinkingReply(
  thinking: string,
  text: string,
  options: AnthropicReplyOptions = {},
): AnthropicMessageReply {
  return {
    kind: "message",
    blocks: [
      { type: "thinking", thinking },
      { type: "text", text },
    ],
    ...options,
  };
}

export function anthropicToolUseReply(
  name: string,
  input: Record<string, unknown>,
  options: AnthropicReplyOptions & { id?: string; text?: string } = {},
): AnthropicMessageReply {
  const { id, text, ...rest } = options;
  const blocks: AnthropicReplyBlock[] = text === undefined ? [] : [{ type: "text", text }];
  blocks.push(
    id === undefined ? { type: "tool_use", name, input } : { type: "tool_use", name, input, id },
  );
  return { kind: "message", blocks, ...rest };
}

/** In plan mode, Claude proposes its plan by asking to leave plan mode (`ExitPlanMode`). */
export function anthropicExitPlanModeReply(
  plan: string,
  options: AnthropicReplyOptions & { id?: string; text?: string } = {},
): AnthropicMessageReply {
  return anthropicToolUseReply("ExitPlanMode", { plan }, options);
}

export function anthropicBashReply(
  command: string,
  options: AnthropicReplyOptions & { id?: string } = {},
) {
  return anthropicToolUseReply("Bash", { command, description: "Run a command" }, options);
}

export function anthropicWriteReply(
  filePath: string,
  content: string,
  options: AnthropicReplyOptions = {},
) {
  return anthropicToolUseReply("Write", { file_path: filePath, content }, options);
}

export function anthropicEditReply(
  filePath: string,
  oldString: string,
  newString: string,
  options: AnthropicReplyOptions = {},
) {
  return anthropicToolUseReply(
    "Edit",
    { file_path: filePath, old_string: oldString, new_string: newString },
    options,
  );
}

export function anthropicTodoWriteReply(
  todos: { content: string; status: "pending" | "in_progress" | "completed"; activeForm: string }[],
  options: AnthropicReplyOptions = {},
) {
  return anthropicToolUseReply("TodoWrite", { todos }, options);
}

/**
 * A subagent call. Current Claude Code names the tool `Agent` (older builds: `Task`). Agents run in
 * the background by default; this asks for a foreground run so the parent waits for the report.
 */
export function anthropicTaskReply(
  prompt: string,
  options: AnthropicReplyOptions & {
    description?: string;
    subagentType?: string;
    background?: boolean;
    toolName?: string;
    id?: string;
  } = {},
) {
  const { description, subagentType, background, toolName, ...rest } = options;
  return anthropicToolUseReply(
    toolName ?? "Agent",
    {
      description: description ?? "Scripted subagent",
      prompt,
      subagent_type: subagentType ?? "general-purpose",
      run_in_background: background ?? false,
    },
    rest,
  );
}

export function anthropicErrorReply(
  status: number,
  message: string,
  options: Omit<AnthropicErrorReply, "kind" | "status" | "message"> = {},
): AnthropicErrorReply {
  return { kind: "error", status, message, ...options };
}
