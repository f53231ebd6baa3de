import { setTimeout as sleep } from "node:timers/promises";
import { ProviderFailureError } from "@skein/domain/provider";

/**
 * The provider sent nothing for too long while a turn was running (B2: a hung model). A silent
 * stream is a `network` failure: the model service stopped answering.
 */
export class IdleTimeoutError extends ProviderFailureError {
  override readonly name = "IdleTimeoutError";

  constructor(readonly idleMs: number) {
    super({
      kind: "network",
      message: `no output from the provider for ${Math.round(idleMs / 1000)} s (idle timeout)`,
    });
  }
}

const IDLE = Symbol("idle");

/**
 * The turn's events, failing with `IdleTimeoutError` once the provider has been silent for
 * `idleMs` (after `onIdle` has stopped the native turn). Silence while `paused()` holds (the run
 * waits for a person's answer) does not count. `idleMs <= 0` turns the watchdog off.
 */
export async function* untilIdle<T>(
  source: AsyncIterable<T>,
  idleMs: number,
  paused: () => Promise<boolean>,
  onIdle: () => Promise<void>,
): AsyncGenerator<T> {
  if (idleMs <= 0) {
    yield* source;
    return;
  }
  const iterator = source[Symbol.asyncIterator]();
  let pending = iterator.next();
  try {
    for (;;) {
      const timer = new AbortController();
      const idle = sleep(idleMs, IDLE, { signal: timer.signal, ref: false }).catch(() => null);
      const next = await Promise.race([pending, idle]);
      timer.abort();
      if (next === IDLE) {
        if (await paused()) continue;
        await onIdle();
        throw new IdleTimeoutError(idleMs);
      }
      if (next === null) continue;
      if (next.done) return;
      yield next.value;
      pending = iterator.next();
    }
  } finally {
    // Not awaited: a generator's return() waits behind a pending next() that may never settle.
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}
