import { setTimeout as sleep } from "node:timers/promises";

/** A failure a later try may not meet (a network error, 429, 5xx); anything else is final. */
export class Retryable extends Error {
  override readonly name = "Retryable";
}

/**
 * Tries `send` once, then again after each of `delaysMs` while it fails `Retryable`: at most
 * `delaysMs.length + 1` tries, whatever happens. Resolves with how many tries it took.
 */
export async function withBoundedRetries(
  delaysMs: readonly number[],
  send: () => Promise<void>,
): Promise<number> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await send();
      return attempt + 1;
    } catch (error) {
      const delay = delaysMs[attempt];
      if (!(error instanceof Retryable) || delay === undefined) throw error;
      await sleep(delay);
    }
  }
}
