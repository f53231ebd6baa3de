/**
 * Scripted replies for the fake OpenAI Responses server. A reply is either a streamed response made
 * of output items, or an HTTP error. Builders below cover what Codex tests need.
 */

export type FakeOutputItem =
  | {
      type: "message";
      text: string;
      /** How the text is split into `response.output_text.delta` events; default: one per word. */
      chunks?: readonly string[];
    }
  | { type: "reasoning"; summary: readonly string[] }
  | {
      type: "function_call";
      name: string;
      /** JSON-encoded into the item's `arguments` string, as the real API does. */
      arguments: unknown;
      callId?: string;
    }
  | {
      /** A freeform tool call (Codex's `apply_patch` is one): raw text input, not JSON. */
      type: "custom_tool_call";
      name: string;
      input: string;
      callId?: string;
    };

export type FakeUsage = {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningOutputTokens: number;
};

export type FakeReply =
  | {
      kind: "response";
      items: readonly FakeOutputItem[];
      /** Pause before every SSE event after the first delta; makes interrupts observable. */
      eventDelayMs?: number;
      usage?: Partial<FakeUsage>;
    }
  | { kind: "http_error"; status: number; message: string };

export type TextReplyOptions = { chunks?: readonly string[]; eventDelayMs?: number };

export function responsesTextReply(text: string, options: TextReplyOptions = {}): FakeReply {
  const item: FakeOutputItem = { type: "message", text };
  if (options.chunks) item.chunks = options.chunks;
  return withDelay({ kind: "response", items: [item] }, options.eventDelayMs);
}

/** Text streamed one chunk at a time with a pause between events, for interrupt tests. */
export function responsesSlowTextReply(chunks: readonly string[], eventDelayMs: number): FakeReply {
  return responsesTextReply(chunks.join(""), { chunks, eventDelayMs });
}

export type ExecCommandOptions = {
  callId?: string;
  workdir?: string;
  /** Codex's own per-call escalation request; tests use approval policy instead. */
  extra?: Record<string, unknown>;
  /** Optional assistant preamble before the call. */
  preamble?: string;
};

/** The model asks Codex to run a shell command through its `exec_command` tool. */
export function execCommandReply(command: string, options: ExecCommandOptions = {}): FakeReply {
  const args: Record<string, unknown> = { cmd: command, ...options.extra };
  if (options.workdir) args.workdir = options.workdir;
  const call: FakeOutputItem = { type: "function_call", name: "exec_command", arguments: args };
  if (options.callId) call.callId = options.callId;
  const items: FakeOutputItem[] = options.preamble
    ? [{ type: "message", text: options.preamble }, call]
    : [call];
  return { kind: "response", items };
}

export function functionCallReply(name: string, args: unknown, callId?: string): FakeReply {
  const call: FakeOutputItem = { type: "function_call", name, arguments: args };
  if (callId) call.callId = callId;
  return { kind: "response", items: [call] };
}

/** The model edits files through Codex's freeform `apply_patch` tool (`*** Begin Patch` …). */
export function applyPatchReply(patch: string, callId?: string): FakeReply {
  const call: FakeOutputItem = { type: "custom_tool_call", name: "apply_patch", input: patch };
  if (callId) call.callId = callId;
  return { kind: "response", items: [call] };
}

/** A reasoning item (summary only) followed by the final text. */
export function reasoningReply(summary: readonly string[], text: string): FakeReply {
  return {
    kind: "response",
    items: [
      { type: "reasoning", summary },
      { type: "message", text },
    ],
  };
}

export function httpErrorReply(status: number, message = `fake upstream error ${status}`) {
  const reply: FakeReply = { kind: "http_error", status, message };
  return reply;
}

function withDelay(reply: FakeReply & { kind: "response" }, eventDelayMs: number | undefined) {
  const out: FakeReply = eventDelayMs === undefined ? reply : { ...reply, eventDelayMs };
  return out;
}
