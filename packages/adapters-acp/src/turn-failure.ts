import { failureOfWords, kindOfStatus, kindOfWords } from "@skein/adapter-kit";
import type { ProviderFailure } from "@skein/domain/provider";

/**
 * What a failed `session/prompt` says, in words: Gemini CLI puts the model service's error body
 * (`{"error":{"code":401,"message":…,"status":"UNAUTHENTICATED"}}`) in the message; its message
 * and status are read out of it, and any `data` the agent added is kept.
 */
export function acpErrorWords(error: unknown): string {
  const base = error instanceof Error ? error.message : String(error);
  const words = googleErrorWords(base) ?? base;
  const data = (error as { data?: unknown } | null)?.data;
  const detail =
    typeof data === "string" ? data : data && typeof data === "object" ? JSON.stringify(data) : "";
  return detail && !words.includes(detail) ? `${words}: ${detail}` : words;
}

function googleErrorWords(text: string): string | null {
  if (!text.trimStart().startsWith("{")) return null;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown; status?: unknown } };
    const message = body.error?.message;
    if (typeof message !== "string") return null;
    return typeof body.error?.status === "string" ? `${message} (${body.error.status})` : message;
  } catch {
    return null;
  }
}

/** JSON-RPC's own error codes are negative; a code in 400–599 is the model service's status. */
function httpStatusOf(error: unknown): number | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" && code >= 400 && code < 600 ? code : null;
}

/**
 * B2: a failed prompt's cause. Gemini CLI answers a failed model call with a JSON-RPC error whose
 * code is the HTTP status (401, 429, 503…); a model service it cannot reach comes as a 500 whose
 * words say the fetch failed, which is the network and not the service. Other agents give only
 * words (claude-agent-acp: `API Error: 429 …`), read as any runtime's words are. A rate limit's
 * wait comes from the words (Gemini CLI: "Suggested retry after 3s.").
 */
export function acpTurnFailure(error: unknown): ProviderFailure {
  const words = acpErrorWords(error);
  const status = httpStatusOf(error);
  const byStatus = status === null ? null : kindOfStatus(status, words);
  const fromWords = kindOfWords(words);
  const kind =
    byStatus === null || (byStatus === "internal" && fromWords === "network")
      ? fromWords
      : byStatus;
  return failureOfWords(words, kind);
}

/** The agent's process went away before the prompt was answered. */
export function acpRuntimeGone(name: string, stderrTail: string): ProviderFailure {
  return {
    kind: "runtime_crashed",
    message: `${name} exited during the turn${stderrTail ? `: ${stderrTail}` : ""}`,
  };
}
