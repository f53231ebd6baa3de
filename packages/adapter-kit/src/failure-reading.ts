import type { ProviderFailure, ProviderFailureKind } from "@skein/domain/provider";

/**
 * Reading a provider's error into a typed failure (B2). Adapters call these with what their
 * runtime hands them (an HTTP status where it has one, else its words); the readings of words live
 * here, with the adapters, and nowhere in the app.
 */

const CONTEXT_TOO_LONG =
  /context[ _-]?(window|length)|too many tokens|prompt is too long|maximum context|input is too long|too long for the model/i;
const AUTH =
  /\b(401|403)\b|unauthori[sz]ed|forbidden|invalid[ _-]?(x-)?api[ _-]?key|authentication|not logged in|log ?in required|credential/i;
const RATE_LIMITED = /\b429\b|rate[ _-]?limit|too many requests|usage limit/i;
const OVERLOADED = /\b(503|529)\b|overloaded|high demand|unavailable|capacity/i;
const NETWORK =
  /ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EPIPE|socket hang up|connection (error|refused|reset|closed)|stream (disconnected|closed|error)|network|fetch failed|timed? ?out|unable to connect/i;
const INVALID = /\b(400|404|413|422)\b|invalid[ _-]request|bad request|not found|model_not_found/i;
const INTERNAL = /\b5\d\d\b|internal server error|api_error/i;

/** The kind an HTTP status from the model service stands for; null where it says nothing. */
export function kindOfStatus(status: number, words = ""): ProviderFailureKind | null {
  if (status === 401 || status === 403) return "auth";
  if (status === 429) return "rate_limited";
  if (status === 503 || status === 529) return "overloaded";
  if (status === 400 || status === 413) {
    return CONTEXT_TOO_LONG.test(words) ? "context_too_long" : "invalid_request";
  }
  if (status === 404 || status === 422) return "invalid_request";
  if (status >= 500) return "internal";
  return null;
}

/**
 * The kind a provider's words name, for runtimes that hand over only text. Checked most
 * specific first: a context-window 400 is not any other bad request, and a 429 is not a 5xx.
 */
export function kindOfWords(words: string): ProviderFailureKind {
  if (CONTEXT_TOO_LONG.test(words)) return "context_too_long";
  if (AUTH.test(words)) return "auth";
  if (RATE_LIMITED.test(words)) return "rate_limited";
  if (OVERLOADED.test(words)) return "overloaded";
  if (INVALID.test(words)) return "invalid_request";
  if (INTERNAL.test(words)) return "internal";
  if (NETWORK.test(words)) return "network";
  return "internal";
}

/**
 * How long the words ask to wait before another request ("retry after 2 s", "try again in
 * 1.5s", a `retry-after: 3` header echoed in the text); undefined where they do not say.
 */
export function retryAfterOfWords(words: string): number | undefined {
  const match =
    /retry[- ]after["':\s]+(\d+(?:\.\d+)?)\s*(ms|s|seconds?)?/i.exec(words) ??
    /try again in\s+(\d+(?:\.\d+)?)\s*(ms|s|seconds?)?/i.exec(words);
  if (!match) return undefined;
  const value = Number(match[1]);
  if (!Number.isFinite(value) || value < 0) return undefined;
  return Math.round(match[2] === "ms" ? value : value * 1000);
}

/** A failure read from the words alone, with the wait a rate limit named. */
export function failureOfWords(words: string, kind = kindOfWords(words)): ProviderFailure {
  const message = words.trim() || "the provider gave no reason";
  if (kind !== "rate_limited") return { kind, message };
  const retryAfterMs = retryAfterOfWords(words);
  return retryAfterMs === undefined ? { kind, message } : { kind, message, retryAfterMs };
}
