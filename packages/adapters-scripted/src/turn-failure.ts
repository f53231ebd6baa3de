import { failureOfWords, kindOfStatus, kindOfWords } from "@skein/adapter-kit";
import type { ProviderFailure } from "@skein/domain/provider";

/** A failed turn as the scripted agent reports it in `turn/completed`. */
export type AgentTurnError = {
  /** The model service's own words, or the fetch's when it could not be reached. */
  error: string;
  /** The model service's HTTP status; null when it never answered. */
  httpStatus: number | null;
  /** Its `retry-after` header (seconds), when it sent one. */
  retryAfter?: string | null;
};

/**
 * B2: a failed turn's cause. The status decides where the service answered; a service the agent
 * could not reach comes with no status, only the fetch's words ("fetch failed", "ECONNREFUSED"),
 * which are the network. A rate limit's wait comes from `retry-after`, else from the words.
 */
export function scriptedTurnFailure(reported: AgentTurnError): ProviderFailure {
  const words = reported.error;
  const status = reported.httpStatus;
  const kind = (status === null ? null : kindOfStatus(status, words)) ?? kindOfWords(words);
  const failure = failureOfWords(words, kind);
  const seconds = Number(reported.retryAfter ?? Number.NaN);
  if (kind !== "rate_limited" || !Number.isFinite(seconds) || seconds < 0) return failure;
  return { ...failure, retryAfterMs: seconds * 1_000 };
}

/** The agent's process went away before the turn ended. */
export function scriptedRuntimeGone(words: string): ProviderFailure {
  return { kind: "runtime_crashed", message: words };
}
