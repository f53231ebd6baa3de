import type { ProviderFailure, ProviderFailureKind } from "../provider/provider-failure.ts";
import { providerDisplayName } from "../provider/providers.ts";
import { type AttemptPolicy, attemptDelayMs } from "./attempt-policy.ts";

/** The new attempt a failure earns while attempts are left (B2), or none. */
export type AttemptKind = "retry" | "provider_recovery";

type FailureRule = {
  attempt: AttemptKind | null;
  /** What the person can do about it, after Skein's own attempts are used up. */
  advice: (name: string, failure: ProviderFailure) => string;
};

const AGAIN_SOON = "The model service did not answer properly; send the message again in a moment.";

/**
 * B1/B2: the one table that says what each kind of provider failure leads to: a new attempt of
 * the run (a retry on the same runtime, or a new runtime resuming the provider thread) or the
 * run's failure, and the words the person reads either way.
 */
export const FAILURE_POLICY: Record<ProviderFailureKind, FailureRule> = {
  auth: {
    attempt: null,
    advice: (name) =>
      `Check ${name}'s credentials on the server (provider status shows its state), then send the message again.`,
  },
  rate_limited: {
    attempt: "retry",
    advice: (_name, failure) =>
      failure.retryAfterMs !== undefined
        ? `The model service is limiting requests; send the message again after ${seconds(failure.retryAfterMs)}.`
        : "The model service is limiting requests; send the message again in a while.",
  },
  overloaded: { attempt: "retry", advice: () => AGAIN_SOON },
  network: {
    attempt: "retry",
    advice: (name) =>
      `Check that the server can reach ${name}'s model service (network, proxy, or the base URL in ${name}'s configuration), then send the message again.`,
  },
  internal: {
    attempt: "retry",
    advice: () =>
      "Send the message again; if it keeps failing, provider status and the server log say more.",
  },
  context_too_long: {
    attempt: null,
    advice: () =>
      "The conversation no longer fits the model's context: compact the thread, or hand it over to a new one, then send the message again.",
  },
  invalid_request: {
    attempt: null,
    advice: (name) =>
      `${name} refused the request itself; check the thread's model and the message (the server log has the request), then send it again.`,
  },
  runtime_crashed: {
    attempt: "provider_recovery",
    advice: (name) =>
      `The ${name} runtime stopped during the turn; send the message again (Skein starts a new runtime and resumes the conversation).`,
  },
};

export type FailureDecision = { attempt: AttemptKind; delayMs: number } | { attempt: null };

/**
 * What follows a failed turn. A runtime that is gone always gets a new one (whatever the words
 * said); a rate limit waits as long as the provider asked, but never past the policy's longest
 * wait, and no kind gets more attempts than the policy allows.
 */
export function decideFailure(
  failure: ProviderFailure,
  context: { runtimeAlive: boolean; retries: number; policy: AttemptPolicy },
): FailureDecision {
  const { policy, retries } = context;
  if (retries >= policy.maxRetries) return { attempt: null };
  const attempt = context.runtimeAlive ? FAILURE_POLICY[failure.kind].attempt : "provider_recovery";
  if (!attempt) return { attempt: null };
  const backoff = attemptDelayMs(policy, retries + 1);
  const asked = failure.kind === "rate_limited" ? failure.retryAfterMs : undefined;
  if (asked === undefined) return { attempt, delayMs: backoff };
  if (asked > policy.maxRetryAfterMs) return { attempt: null };
  return { attempt, delayMs: Math.max(backoff, asked) };
}

/**
 * B1 / item 10: a failed turn's cause as a person reads it: what happened (the provider's own
 * words stay in it, for diagnosis), on which attempt, and what to do.
 */
export function failureInWords(
  provider: string,
  failure: ProviderFailure,
  attempt?: number,
): string {
  const name = providerDisplayName(provider);
  const what = failure.message.trim().replace(/[.\s]+$/, "") || "no reason given";
  const which = attempt !== undefined && attempt > 1 ? ` (attempt ${attempt})` : "";
  return `The ${name} turn failed: ${what}${which}. ${FAILURE_POLICY[failure.kind].advice(name, failure)}`;
}

function seconds(ms: number): string {
  return `${Math.max(1, Math.ceil(ms / 1000))} s`;
}
