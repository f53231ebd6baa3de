import { failureOfWords, kindOfStatus, kindOfWords } from "@skein/adapter-kit";
import type { ProviderFailure, ProviderFailureKind } from "@skein/domain/provider";
import type { TurnError } from "../protocol/index.ts";

/** Codex's own error codes (`codexErrorInfo`) that name a kind by themselves. */
const KIND_OF_CODE: Record<string, ProviderFailureKind> = {
  contextWindowExceeded: "context_too_long",
  usageLimitExceeded: "rate_limited",
  rateLimitExceeded: "rate_limited",
  serverOverloaded: "overloaded",
  flexUnavailable: "overloaded",
  policyCapacityUnavailable: "overloaded",
  unauthorized: "auth",
  badRequest: "invalid_request",
  modelNotFound: "invalid_request",
  internalServerError: "internal",
};

/** Codex codes of a failed connection or stream, which carry the HTTP status when there was one. */
const CONNECTION_CODES = [
  "httpConnectionFailed",
  "responseStreamConnectionFailed",
  "responseStreamDisconnected",
  "responseTooManyFailedAttempts",
];

/** B2: a failed Codex turn's cause, from its `TurnError` (code first, then status, then words). */
export function codexTurnFailure(error: TurnError): ProviderFailure {
  const words = [error.message, error.additionalDetails].filter(Boolean).join(": ");
  return failureOfWords(words, kindOfCodexError(error, words));
}

function kindOfCodexError(error: TurnError, words: string): ProviderFailureKind {
  const info = error.codexErrorInfo;
  if (typeof info === "string") {
    const kind = KIND_OF_CODE[info];
    if (kind === "invalid_request")
      return kindOfWords(words) === "context_too_long" ? "context_too_long" : kind;
    if (kind) return kind;
  } else if (info && typeof info === "object") {
    for (const code of CONNECTION_CODES) {
      const detail = (info as Record<string, unknown>)[code];
      if (!detail || typeof detail !== "object") continue;
      const status = (detail as { httpStatusCode?: unknown }).httpStatusCode;
      const byStatus = typeof status === "number" ? kindOfStatus(status, words) : null;
      if (byStatus) return byStatus;
      // No status: the words may still say 429 or 503 (Codex folds them into its message).
      const byWords = kindOfWords(words);
      return byWords === "internal" ? "network" : byWords;
    }
  }
  return kindOfWords(words);
}
