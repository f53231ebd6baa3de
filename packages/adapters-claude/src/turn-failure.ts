import type { SDKAssistantMessageError } from "@anthropic-ai/claude-agent-sdk";
import { failureOfWords, kindOfStatus, kindOfWords } from "@skein/adapter-kit";
import type { ProviderFailure, ProviderFailureKind } from "@skein/domain/provider";

/** The kinds the Claude CLI names on its synthetic error message; null: read the words. */
const KIND_OF_SDK_ERROR: Record<SDKAssistantMessageError, ProviderFailureKind | null> = {
  authentication_failed: "auth",
  oauth_org_not_allowed: "auth",
  account_on_hold: "auth",
  verification_required: "auth",
  billing_error: "auth",
  cloud_credential_error: "auth",
  rate_limit: "rate_limited",
  overloaded: "overloaded",
  invalid_request: "invalid_request",
  model_not_found: "invalid_request",
  max_output_tokens: "invalid_request",
  server_error: "internal",
  unknown: null,
};

/**
 * B2: a failed Claude turn's cause: the HTTP status in its text (`API Error: 429 {...}`) first,
 * then the error kind the CLI named where it is more than its catch-all (`server_error` is also
 * what a refused connection gets), then the words (`Connection refused`). A context-window 400
 * is told apart by its words either way: the CLI names it only `invalid_request`.
 */
export function claudeTurnFailure(
  words: string,
  sdkError: SDKAssistantMessageError | undefined,
): ProviderFailure {
  const status = /API Error: (\d{3})\b/.exec(words)?.[1];
  const byStatus = status === undefined ? null : kindOfStatus(Number(status), words);
  const named = sdkError === undefined ? null : (KIND_OF_SDK_ERROR[sdkError] ?? null);
  const kind = byStatus ?? (named === "internal" ? null : named) ?? kindOfWords(words);
  const context = kind === "invalid_request" && kindOfWords(words) === "context_too_long";
  return failureOfWords(words, context ? "context_too_long" : kind);
}

/** The CLI process went away before the turn's result. */
export function claudeRuntimeGone(words: string | null): ProviderFailure {
  return { kind: "runtime_crashed", message: words || "the claude process ended" };
}
