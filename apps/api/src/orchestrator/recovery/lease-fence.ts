import { type LeaseKeeper, LeaseFenceError } from "@skein/db";
import type { ThreadId } from "@skein/domain";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";

/** What the executor's run path appends through. */
export type RunAppender = Pick<AggregateRepository, "execute" | "executeBatch">;

/** Refuses an append for a run whose thread lease this instance no longer holds. */
export class LeaseLostError extends Error {
  override readonly name = "LeaseLostError";

  constructor(readonly threadId: ThreadId) {
    super(`runtime lease of thread ${threadId} was lost to another instance`);
  }
}

/**
 * The appends of one thread's runs go through this fence. Every append names the thread's lease
 * and this instance, and the store appends it only if the lease still names this instance, in the
 * append's own transaction: once another instance took the thread over, nothing of this run gets
 * in, however fast its turn streams, and the instance that took over is not raced by it. The first
 * refusal marks the lease lost here (`lost.add`), which stops the turn.
 */
export function fenceAppends(
  repo: AggregateRepository,
  leases: LeaseKeeper,
  threadId: ThreadId,
  lost: { has(threadId: ThreadId): boolean; add(threadId: ThreadId): unknown },
): RunAppender {
  const fence = { lease: threadId, owner: leases.owner };
  const refused = (error: unknown): never => {
    if (!(error instanceof LeaseFenceError)) throw error;
    lost.add(threadId);
    throw new LeaseLostError(threadId);
  };
  return {
    async execute(command, options) {
      if (lost.has(threadId)) throw new LeaseLostError(threadId);
      return repo.execute(command, { ...options, fence }).catch(refused);
    },
    async executeBatch(commands, options) {
      if (lost.has(threadId)) throw new LeaseLostError(threadId);
      return repo.executeBatch(commands, { ...options, fence }).catch(refused);
    },
  };
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
