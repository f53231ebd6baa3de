import type { LeaseKeeper } from "@skein/db";
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

/** Commands that end a provider turn or a run: the events another instance's recovery races. */
const TERMINAL = new Set(["CompleteProviderTurn", "FailRun"]);

/**
 * The appends of one thread's runs go through this fence. Once the lease is known lost, nothing
 * more is appended: the instance that took the thread over has ended the run `interrupted`, and
 * this one must not write behind it. The renewal timer notices a loss only every TTL/3, so a
 * terminal event is appended only after the database confirms the lease still names this
 * instance (one read per turn, not per delta).
 */
export function fenceAppends(
  repo: AggregateRepository,
  leases: LeaseKeeper,
  threadId: ThreadId,
  lost: { has(threadId: ThreadId): boolean; add(threadId: ThreadId): unknown },
): RunAppender {
  return {
    async execute(command, options) {
      if (lost.has(threadId)) throw new LeaseLostError(threadId);
      if (TERMINAL.has(command.type) && !(await leases.stillOwns(threadId))) {
        lost.add(threadId);
        throw new LeaseLostError(threadId);
      }
      return repo.execute(command, options);
    },
    async executeBatch(commands, options) {
      // A batch never holds a terminal command (those are appended alone, after the lease check).
      if (lost.has(threadId)) throw new LeaseLostError(threadId);
      if (commands.some((c) => TERMINAL.has(c.type))) {
        throw new Error("terminal commands are appended one at a time");
      }
      return repo.executeBatch(commands, options);
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
