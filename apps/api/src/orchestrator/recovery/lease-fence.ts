import type { Command, ThreadId } from "@skein/domain";
import type { ExecuteOptions, ExecuteResult } from "../commands/aggregate-repository.ts";

/**
 * What the executor's run path appends through: the thread's scope (runner-context.ts), which
 * fences every append by the thread's lease. Its own port, not a view of the repository, so run
 * code cannot reach past the fence to the repository by accident.
 */
export interface RunAppender {
  execute(command: Command, options?: ExecuteOptions): Promise<ExecuteResult>;
  executeBatch(commands: readonly Command[], options?: ExecuteOptions): Promise<ExecuteResult>;
}

/**
 * Refuses an append for a run whose thread lease this instance no longer holds: the store's
 * fence refused it, or an earlier refusal marked the lease lost (the thread's scope, in
 * runner-context.ts, fences every append of its runs).
 */
export class LeaseLostError extends Error {
  override readonly name = "LeaseLostError";

  constructor(readonly threadId: ThreadId) {
    super(`runtime lease of thread ${threadId} was lost to another instance`);
  }
}

/**
 * The turn's events until `signal` aborts (the lease was lost): then iteration fails at once with
 * `LeaseLostError`, even while the provider is silent, so a runtime that ignores the interrupt
 * cannot keep the thread's runner (and this instance's hold on the thread's queue) waiting.
 */
export async function* untilAborted<T>(
  source: AsyncIterable<T>,
  signal: AbortSignal,
  threadId: ThreadId,
): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(new LeaseLostError(threadId));
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Not awaited: a generator's return() waits behind a pending next() that may never settle.
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}
