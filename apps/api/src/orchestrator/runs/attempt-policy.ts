/** B2: how a run recovers from a provider failure mid-turn. */
export type AttemptPolicy = {
  /** New attempts of one run after provider failures (0 turns recovery off). */
  maxRetries: number;
  /** Wait before the n-th new attempt: baseDelayMs × 2^(n-1), at most maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * A running turn whose provider sends nothing for this long (not counting time spent waiting
   * for a person's answer) is stopped and fails as `idle timeout`, which earns a retry.
   * 0 turns the watchdog off.
   */
  idleTimeoutMs: number;
  /**
   * B15: a turn whose runtime keeps retrying a model it cannot reach, with no output between,
   * is stopped this long after its first retry and fails saying so; no new attempt follows.
   */
  unreachableMs: number;
};

export const DEFAULT_ATTEMPT_POLICY: AttemptPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 5_000,
  idleTimeoutMs: 10 * 60_000,
  unreachableMs: 60_000,
};

/** A provider runtime that went away mid-turn (crash, kill, exit). */
const RUNTIME_GONE = /crash|killed|exited|\bSIG[A-Z]+\b|runtime ended|without finishing the turn/i;
/** The model service failed the request (5xx, overloaded, a cut or silent stream). */
const MODEL_FAILED =
  /\b5\d\d\b|overloaded|high demand|internal server error|stream (disconnected|closed|error)|ECONNRESET|socket hang up|idle timeout|timed? ?out/i;

/**
 * Which new attempt a failed turn gets, if any: `provider_recovery` when its runtime is gone
 * (a new runtime resumes the provider thread from its persisted ref), `retry` when the model
 * service failed; null for failures another attempt would only repeat (refusals, bad requests,
 * credentials).
 */
export function recoveryFor(
  error: string,
  runtimeAlive: boolean,
): "provider_recovery" | "retry" | null {
  if (!runtimeAlive || RUNTIME_GONE.test(error)) return "provider_recovery";
  if (/\b(400|401|403|404|422)\b|unauthori[sz]ed|forbidden|invalid/i.test(error)) return null;
  if (MODEL_FAILED.test(error)) return "retry";
  return null;
}

export function attemptDelayMs(policy: AttemptPolicy, retry: number): number {
  return Math.min(policy.baseDelayMs * 2 ** Math.max(0, retry - 1), policy.maxDelayMs);
}
