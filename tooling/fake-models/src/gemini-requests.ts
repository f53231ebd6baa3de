/**
 * Recorded requests of the fake Gemini API server, and helpers that read conversation content
 * out of them so tests can assert what history a client really sent.
 */

export type GeminiRequestKind =
  /** A streamed `streamGenerateContent` call offering tools: a main-loop model turn. */
  | "conversation"
  /** Any other generate call (routing classifiers, next-speaker checks, summaries, titles). */
  | "auxiliary"
  | "count_tokens"
  | "other";

export type GeminiRecordedRequest = {
  /** Position among all requests this server received, from 0. */
  index: number;
  method: string;
  path: string;
  /** The model named in the path (`/v1beta/models/<model>:method`), or null. */
  model: string | null;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (`undefined` when empty or not JSON). */
  body: unknown;
  kind: GeminiRequestKind;
  receivedAt: number;
  /** Set when the client closed the connection before the scripted response was fully written. */
  closedByClient: boolean;
};

export type GeminiPart = Record<string, unknown>;
export type GeminiContent = { role: string; parts: GeminiPart[] };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const ROUTE = /\/models\/([^/:?]+):([A-Za-z]+)/;

/** `{model, method}` from a path like `/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`. */
export function geminiRoute(path: string): { model: string; method: string } | null {
  const match = ROUTE.exec(path.split("?")[0] ?? "");
  return match?.[1] && match[2] ? { model: decodeURIComponent(match[1]), method: match[2] } : null;
}

/** True when the request asks for a JSON answer (`generationConfig.responseMimeType`). */
export function geminiWantsJson(body: unknown): boolean {
  const config = isRecord(body) ? body.generationConfig : undefined;
  return isRecord(config) && config.responseMimeType === "application/json";
}

export function classifyGeminiRequest(
  method: string,
  path: string,
  body: unknown,
): GeminiRequestKind {
  const route = geminiRoute(path);
  if (method !== "POST" || !route) return "other";
  if (route.method === "countTokens") return "count_tokens";
  if (route.method !== "streamGenerateContent" && route.method !== "generateContent")
    return "other";
  const withTools = isRecord(body) && Array.isArray(body.tools) && body.tools.length > 0;
  const streamed = route.method === "streamGenerateContent";
  return streamed && withTools && !geminiWantsJson(body) ? "conversation" : "auxiliary";
}

/** The `contents` of a request (role `user` or `model`, each with its parts). */
export function geminiContents(request: GeminiRecordedRequest): GeminiContent[] {
  const body = request.body;
  if (!isRecord(body) || !Array.isArray(body.contents)) return [];
  return body.contents.filter(isRecord).map((c) => ({
    role: typeof c.role === "string" ? c.role : "user",
    parts: Array.isArray(c.parts) ? c.parts.filter(isRecord) : [],
  }));
}

/** A plain text part that is not a thought. */
export function geminiPartText(part: GeminiPart): string | null {
  return typeof part.text === "string" && part.thought !== true ? part.text : null;
}

/** The text a `functionResponse` part carries back to the model (its response, as JSON). */
export function geminiFunctionResponseText(part: GeminiPart): string | null {
  const response = part.functionResponse;
  if (!isRecord(response)) return null;
  const value = response.response;
  if (isRecord(value) && typeof value.output === "string") return value.output;
  return JSON.stringify(value ?? null);
}

/** Every text the request carries in `contents` (user, model, function responses), joined. */
export function geminiRequestText(request: GeminiRecordedRequest): string {
  return geminiContents(request)
    .flatMap((c) => c.parts.map((p) => geminiPartText(p) ?? geminiFunctionResponseText(p) ?? ""))
    .join("\n");
}

/** The text parts of the last `user` content holding text: the prompt the request answers. */
export function geminiLatestUserText(request: GeminiRecordedRequest): string {
  const last = geminiContents(request).findLast(
    (c) => c.role === "user" && c.parts.some((p) => geminiPartText(p) !== null),
  );
  return (last?.parts ?? []).flatMap((p) => geminiPartText(p) ?? []).join("\n");
}

export type GeminiFunctionResponse = { name: string; id: string | null; text: string };

export function geminiFunctionResponses(request: GeminiRecordedRequest): GeminiFunctionResponse[] {
  return geminiContents(request)
    .flatMap((c) => c.parts)
    .flatMap((p) => {
      const response = p.functionResponse;
      if (!isRecord(response)) return [];
      return [
        {
          name: typeof response.name === "string" ? response.name : "",
          id: typeof response.id === "string" ? response.id : null,
          text: geminiFunctionResponseText(p) ?? "",
        },
      ];
    });
}

/** Function names the request offers the model. */
export function geminiToolNames(request: GeminiRecordedRequest): string[] {
  const body = request.body;
  if (!isRecord(body) || !Array.isArray(body.tools)) return [];
  return body.tools
    .filter(isRecord)
    .flatMap((t) => (Array.isArray(t.functionDeclarations) ? t.functionDeclarations : []))
    .filter(isRecord)
    .flatMap((f) => (typeof f.name === "string" ? [f.name] : []));
}
