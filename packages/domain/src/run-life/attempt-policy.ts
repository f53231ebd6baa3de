/** B2: how a run recovers from a provider failure mid-turn. */
export type AttemptPolicy = {
  /** New attempts of one run after provider failures (0 turns recovery off). */
  maxRetries: number;
  /** Wait before the n-th new attempt: baseDelayMs × 2^(n-1), at most maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * A rate limit that asks for a longer wait than this fails the run (with the wait in its
   * words) instead of holding it: a person can send again later, a held run only blocks.
   */
  maxRetryAfterMs: number;
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
  maxRetryAfterMs: 60_000,
  idleTimeoutMs: 10 * 60_000,
  unreachableMs: 60_000,
};

export function attemptDelayMs(policy: AttemptPolicy, retry: number): number {
  return Math.min(policy.baseDelayMs * 2 ** Math.max(0, retry - 1), policy.maxDelayMs);
}
