import type { ResponsesRequestBody } from "./openai-responses-request.ts";

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
      /** A tool inside a namespace tool (Codex's `collaboration.spawn_agent` is one). */
      namespace?: string;
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

/**
 * Served only to a request it matches (the first matching reply in the queue wins). Concurrent
 * agents — a parent and its sub-agent — call the model at once; matching keeps each one's script.
 */
export type ReplyMatcher = (request: ResponsesRequestBody) => boolean;

export type FakeReply = (
  | {
      kind: "response";
      items: readonly FakeOutputItem[];
      /** Pause before every SSE event after the first delta; makes interrupts observable. */
      eventDelayMs?: number;
      usage?: Partial<FakeUsage>;
    }
  | { kind: "http_error"; status: number; message: string }
) & { when?: ReplyMatcher };

export type TextReplyOptions = {
  chunks?: readonly string[];
  eventDelayMs?: number;
  /** Token counts the response reports (defaults: 10 in, 5 out). */
  usage?: Partial<FakeUsage>;
};

export function responsesTextReply(text: string, options: TextReplyOptions = {}): FakeReply {
  const item: FakeOutputItem = { type: "message", text };
  if (options.chunks) item.chunks = options.chunks;
  const reply = withDelay({ kind: "response", items: [item] }, options.eventDelayMs);
  return options.usage && reply.kind === "response" ? { ...reply, usage: options.usage } : reply;
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

/**
 * A Codex plan-mode answer: optional prose, then the plan in the `<proposed_plan>` block that
 * Codex's plan collaboration mode asks for (Codex turns the block into a `plan` item).
 */
export function proposedPlanReply(markdown: string, preamble = "Here is the plan."): FakeReply {
  return responsesTextReply(`${preamble}\n<proposed_plan>\n${markdown}\n</proposed_plan>`);
}

/** The `<collaboration_mode>` developer instructions Codex sent in one model request, in order. */
export function collaborationModes(request: ResponsesRequestBody): string[] {
  const texts: string[] = [];
  for (const item of request.input) {
    if (typeof item !== "object" || item === null) continue;
    const { role, content } = item as { role?: unknown; content?: unknown };
    if (role !== "developer" || !Array.isArray(content)) continue;
    for (const part of content) {
      const text = (part as { text?: unknown }).text;
      if (typeof text !== "string") continue;
      for (const match of text.matchAll(/<collaboration_mode>([\s\S]*?)<\/collaboration_mode>/g)) {
        texts.push(match[1] ?? "");
      }
    }
  }
  return texts;
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

/**
 * The model spawns a Codex sub-agent through the `collaboration` namespace tool (multi_agent_v2):
 * the child is addressed as `/root/<taskName>` and starts on `message` without the parent's history.
 */
export function spawnAgentReply(taskName: string, message: string, callId?: string): FakeReply {
  const call: FakeOutputItem = {
    type: "function_call",
    name: "spawn_agent",
    namespace: "collaboration",
    arguments: { task_name: taskName, message, fork_turns: "none" },
  };
  if (callId) call.callId = callId;
  return { kind: "response", items: [call] };
}

/** Matches the model requests of the sub-agent `/root/<taskName>` (its task is in its input). */
export function forAgent(taskName: string): ReplyMatcher {
  const path = `/root/${taskName}`;
  return (request) =>
    request.input.some(
      (item) =>
        typeof item === "object" &&
        item !== null &&
        (item as Record<string, unknown>).type === "agent_message" &&
        (item as Record<string, unknown>).recipient === path,
    );
}

/** Matches model requests of any agent but the sub-agent `/root/<taskName>`. */
export function notForAgent(taskName: string): ReplyMatcher {
  const child = forAgent(taskName);
  return (request) => !child(request);
}

export function httpErrorReply(status: number, message = `fake upstream error ${status}`) {
  const reply: FakeReply = { kind: "http_error", status, message };
  return reply;
}

function withDelay(reply: FakeReply & { kind: "response" }, eventDelayMs: number | undefined) {
  const out: FakeReply = eventDelayMs === undefined ? reply : { ...reply, eventDelayMs };
  return out;
}
