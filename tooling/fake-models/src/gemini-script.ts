/**
 * Scripted replies for the fake Gemini API server. A reply describes one model response (streamed
 * as SSE chunks of `GenerateContentResponse`, or one JSON body for `generateContent`) or an HTTP
 * error.
 */

export type GeminiReplyPart =
  | { type: "text"; text: string }
  /** A thought summary (`{text, thought: true}`), what Gemini streams while it reasons. */
  | { type: "thought"; text: string }
  | { type: "functionCall"; name: string; args: Record<string, unknown>; id?: string };

export type GeminiUsage = {
  promptTokens?: number;
  candidatesTokens?: number;
  thoughtsTokens?: number;
  cachedTokens?: number;
};

export type GeminiMessageReply = {
  kind: "message";
  parts: GeminiReplyPart[];
  /** Defaults to `STOP` (Gemini ends function-call turns with `STOP` too). */
  finishReason?: "STOP" | "MAX_TOKENS" | "SAFETY" | "RECITATION" | "OTHER";
  /** Pause between SSE chunks, so a client can observe (or interrupt) a turn mid-stream. */
  chunkDelayMs?: number;
  /** Text parts are split into chunks of this many characters (default: whole part). */
  chunkSize?: number;
  /** Delay before the response headers are sent. */
  headerDelayMs?: number;
  usage?: GeminiUsage;
};

export type GeminiErrorReply = {
  kind: "error";
  status: number;
  message: string;
  /** Google API status, e.g. `INTERNAL`, `RESOURCE_EXHAUSTED`, `INVALID_ARGUMENT`. */
  errorStatus?: string;
  /**
   * How many consecutive conversation requests this error answers (default 1). Gemini CLI retries
   * 429 and 5xx with back-off, so an error meant to outlast its retries must answer all of them.
   */
  times?: number;
  /**
   * The wait Google's API asks for on a 429, as its `google.rpc.RetryInfo` detail gives it
   * (`"2s"`): the real service puts it in the error body, not in a header.
   */
  retryDelay?: string;
};

export type GeminiReply = GeminiMessageReply | GeminiErrorReply;

export type GeminiReplyOptions = Omit<GeminiMessageReply, "kind" | "parts">;

export function geminiTextReply(
  text: string,
  options: GeminiReplyOptions = {},
): GeminiMessageReply {
  return { kind: "message", parts: [{ type: "text", text }], ...options };
}

/** Text streamed in `chunkSize`-character chunks (default 1) with `chunkDelayMs` between them. */
export function geminiSlowTextReply(
  text: string,
  chunkDelayMs: number,
  options: Omit<GeminiReplyOptions, "chunkDelayMs"> = {},
): GeminiMessageReply {
  return geminiTextReply(text, { chunkSize: 1, ...options, chunkDelayMs });
}

export function geminiThoughtReply(
  thought: string,
  text: string,
  options: GeminiReplyOptions = {},
): GeminiMessageReply {
  return {
    kind: "message",
    parts: [
      { type: "thought", text: thought },
      { type: "text", text },
    ],
    ...options,
  };
}

export function geminiFunctionCallReply(
  name: string,
  args: Record<string, unknown>,
  options: GeminiReplyOptions & { id?: string; text?: string } = {},
): GeminiMessageReply {
  const { id, text, ...rest } = options;
  const parts: GeminiReplyPart[] = text === undefined ? [] : [{ type: "text", text }];
  parts.push(
    id === undefined
      ? { type: "functionCall", name, args }
      : { type: "functionCall", name, args, id },
  );
  return { kind: "message", parts, ...rest };
}

/** Gemini CLI's shell tool. */
export function geminiShellReply(command: string, options: GeminiReplyOptions = {}) {
  return geminiFunctionCallReply(
    "run_shell_command",
    { command, description: "Run a command" },
    options,
  );
}

/** Gemini CLI's file-writing tool. */
export function geminiWriteFileReply(
  filePath: string,
  content: string,
  options: GeminiReplyOptions = {},
) {
  return geminiFunctionCallReply("write_file", { file_path: filePath, content }, options);
}

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

export function geminiErrorReply(
  status: number,
  message: string,
  options: Omit<GeminiErrorReply, "kind" | "status" | "message"> = {},
): GeminiErrorReply {
  return {
    kind: "error",
    status,
    message,
    errorStatus: STATUS_NAMES[status] ?? "UNKNOWN",
    ...options,
  };
}
