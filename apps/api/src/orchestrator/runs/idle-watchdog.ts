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
 * `pending`'s result, or IDLE once `idleMs` pass first. A plain timer, cleared when the event
 * comes: this runs for every event of every turn, and an aborted promise timer costs an
 * AbortError (with its stack) each time.
 */
function withinIdle<T>(pending: Promise<T>, idleMs: number): Promise<T | typeof IDLE> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(IDLE), idleMs);
    // The watchdog alone never keeps the process alive.
    timer.unref();
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

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
      const next = await withinIdle(pending, idleMs);
      if (next === IDLE) {
        if (await paused()) continue;
        await onIdle();
        throw new IdleTimeoutError(idleMs);
      }
      if (next.done) return;
      yield next.value;
      pending = iterator.next();
    }
  } finally {
    // Not awaited: a generator's return() waits behind a pending next() that may never settle.
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}
