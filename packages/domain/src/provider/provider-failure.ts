/**
 * B1/B2: why a provider turn failed, as its adapter understood it. Adapters read their runtime's
 * own error shapes (status codes, error codes, exit signals) and say which kind it was; the app
 * decides what follows from the kind alone and never reads the words to find out.
 */
export const PROVIDER_FAILURE_KINDS = [
  /** The provider refused the credentials (401/403, no login, a revoked key). */
  "auth",
  /** Too many requests (429); `retryAfterMs` when the provider said how long to wait. */
  "rate_limited",
  /** The model service is overloaded or unavailable (529, 503). */
  "overloaded",
  /** The conversation no longer fits the model's context window. */
  "context_too_long",
  /** The model service could not be reached, or its stream broke off or went silent. */
  "network",
  /** The provider refused the request itself (a 400 other than the context, a missing model). */
  "invalid_request",
  /** The provider's runtime (its process or connection) went away during the turn. */
  "runtime_crashed",
  /** The provider failed on its own side (a 500, an error it did not explain). */
  "internal",
] as const;

export type ProviderFailureKind = (typeof PROVIDER_FAILURE_KINDS)[number];

export type ProviderFailure = {
  kind: ProviderFailureKind;
  /** The provider's own words, kept for diagnosis (shown to the person inside Skein's). */
  message: string;
  /** `rate_limited` only: how long the provider asked to wait before another request. */
  retryAfterMs?: number;
};

/** A failure whose kind the adapter could not tell: the provider's words, as `internal`. */
export function unexplainedFailure(message: string): ProviderFailure {
  return { kind: "internal", message };
}

/** Thrown (or rejected) by an adapter where a failure leaves through a promise, not an event. */
export class ProviderFailureError extends Error {
  readonly failure: ProviderFailure;
  constructor(failure: ProviderFailure) {
    super(failure.message);
    this.name = "ProviderFailureError";
    this.failure = failure;
  }
}

/** The failure an error carries, or the error's words as an unexplained one. */
export function providerFailureOf(error: unknown): ProviderFailure {
  if (error instanceof ProviderFailureError) return error.failure;
  return unexplainedFailure(error instanceof Error ? error.message : String(error));
}
