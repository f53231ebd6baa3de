/**
 * The timing loop the turn-overhead benches share (codex_turn_overhead_ratio,
 * acp_turn_overhead_ratio, new_thread_first_turn_ratio): the same turn is timed through Skein
 * and straight to the runtime, in pairs, so machine noise hits both sides alike.
 */
import type { EventStore, StoredEvent } from "@skein/db";
import { type RunId, type ThreadId, threadStreamId } from "@skein/domain";

export const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves per run when its RunFinished is committed, from one live subscription. */
function finishedRuns(events: AsyncIterable<StoredEvent>) {
  const waiters = new Map<string, () => void>();
  void (async () => {
    for await (const event of events) {
      if (event.type !== "RunFinished") continue;
      const runId = (event.data as { runId: string }).runId;
      waiters.get(runId)?.();
      waiters.delete(runId);
    }
  })();
  return (runId: RunId) => new Promise<void>((resolve) => waiters.set(runId, resolve));
}

/**
 * The Skein side of a turn on one thread: sendMessage → the run's RunFinished in the store, seen
 * from one live subscription opened now. `send` queues the run; `waitForRun` is asked while the
 * run is in flight, so it resolves only once the runner is done with it, post-run work included
 * (asked after RunFinished it would return at once), and the turn returns after it.
 * `onFinished` runs right after the turn's time is taken (to read the runtime's own share).
 */
export async function skeinThreadTurns(options: {
  store: Pick<EventStore, "headSequence" | "subscribe">;
  threadId: ThreadId;
  send: (text: string) => Promise<RunId>;
  waitForRun: (runId: RunId) => Promise<unknown>;
  onFinished?: (elapsed: number, measured: boolean) => void;
}): Promise<{ turn: TimedTurn; close(): void }> {
  const { store, threadId } = options;
  const subscription = store.subscribe({
    afterSequence: await store.headSequence(),
    filter: { streamIds: [threadStreamId(threadId)] },
  });
  const finished = finishedRuns(subscription);
  return {
    async turn(text, measured) {
      const started = performance.now();
      const runId = await options.send(text);
      const settled = options.waitForRun(runId);
      await finished(runId);
      const elapsed = performance.now() - started;
      options.onFinished?.(elapsed, measured);
      await settled;
      return elapsed;
    },
    close: () => subscription.close(),
  };
}

/** One side of a pair: runs a turn with `text` and returns its elapsed ms; `measured` is false while warming up. */
export type TimedTurn = (text: string, measured: boolean) => Promise<number>;

export type PairedTurnsOptions = {
  warmup: number;
  rounds: number;
  /**
   * Pause after every turn, either side: a turn's tail (a checkpoint, the runtime's own session
   * write) would otherwise be charged to whichever side happens to go next.
   */
  settleMs: number;
  skein: TimedTurn;
  direct: TimedTurn;
};

/**
 * Warms both sides up, then times `rounds` pairs. Which side goes first is shuffled (seeded, so
 * runs are comparable): a fixed alternation puts each side's turns back to back at every other
 * round boundary, which skews one side.
 */
export async function pairedTurns(
  options: PairedTurnsOptions,
): Promise<{ skein: number[]; native: number[] }> {
  const { settleMs } = options;
  const turn = async (side: TimedTurn, text: string, measured: boolean) => {
    const elapsed = await side(text, measured);
    await sleep(settleMs);
    return elapsed;
  };
  for (let i = 0; i < options.warmup; i += 1) {
    await turn(options.direct, `warm ${i}`, false);
    await turn(options.skein, `warm ${i}`, false);
  }
  const skein: number[] = [];
  const native: number[] = [];
  let seed = 0x5eed;
  const coin = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed < 2 ** 30;
  };
  for (let i = 0; i < options.rounds; i += 1) {
    if (coin()) {
      skein.push(await turn(options.skein, `message ${i}`, true));
      native.push(await turn(options.direct, `message ${i}`, true));
    } else {
      native.push(await turn(options.direct, `message ${i}`, true));
      skein.push(await turn(options.skein, `message ${i}`, true));
    }
  }
  return { skein, native };
}
