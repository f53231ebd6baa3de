/**
 * Issue 34 row fork_first_reply_ratio (B21): fork a thread of RUNS runs (1,000 by default) at its
 * latest state and send the fork its first message, through Skein ÷ straight to a second
 * `codex app-server`, interleaved in one run (the same instant scripted-model turn; order
 * shuffled each round, seeded):
 * - through Skein: forkThread → sendMessage in the fork → its RunFinished in the store (the
 *   provider thread is forked on the way: `thread/fork`, then `turn/start`);
 * - directly: `thread/fork` (excludeTurns, as Skein's adapter asks) then `turn/start` →
 *   `turn/completed`.
 * Both sources are built first, one turn at a time, to the same length; every round forks them
 * again at the same point.
 * Sizes: SKEIN_BENCH_FORK_RUNS (history length), SKEIN_BENCH_FORK_ROUNDS (timed pairs).
 */
import type { StoredEvent } from "@skein/db";
import type { RunId } from "@skein/domain";
import { createCodexSkeinHarness } from "../test/support/codex-skein-harness.ts";
import { benchSize, ratioRow, writeBenchRows } from "./bench-rows.ts";
import { startDirectCodex } from "./direct-codex.ts";
import { startModelProcess } from "./model-process.ts";
import { median, pairedTurns } from "./paired-turns.ts";

const RUNS = Number(process.env.SKEIN_BENCH_FORK_RUNS ?? benchSize(1_000, 3));
const WARMUP = benchSize(2, 0);
const ROUNDS = Number(process.env.SKEIN_BENCH_FORK_ROUNDS ?? benchSize(20, 1));
const TARGET = 1.15;
/** Pause after every turn, either side, so one turn's tail (rollout, checkpoint) is not charged to the next. */
const SETTLE_MS = 200;

/** Resolves once `runId`'s RunFinished shows up in `events` (a subscription opened before the send). */
async function finished(events: AsyncIterable<StoredEvent>, runId: RunId): Promise<void> {
  for await (const event of events) {
    if (event.type === "RunFinished" && (event.data as { runId: string }).runId === runId) return;
  }
}

async function main() {
  // The fake model apart from Skein's event loop, as a real model service runs (model-process.ts).
  const model = await startModelProcess("fake-responses-process.ts");
  const h = await createCodexSkeinHarness({ modelUrl: model.url });
  const direct = await startDirectCodex(h);
  try {
    // The two sources, built side by side (not timed).
    const skeinSource = await h.createThread();
    const directSource = await direct.startThread();
    await Promise.all([
      (async () => {
        for (let i = 0; i < RUNS; i += 1) await h.run(skeinSource, `history ${i}`);
      })(),
      (async () => {
        for (let i = 0; i < RUNS; i += 1) await direct.turn(directSource, `history ${i}`);
      })(),
    ]);
    const runs = (await h.thread(skeinSource)).runs.size;
    if (runs !== RUNS) throw new Error(`the Skein source has ${runs} runs, not ${RUNS}`);

    const directFork = async (text: string) => {
      const started = performance.now();
      await direct.turn(await direct.forkThread(directSource), text);
      return performance.now() - started;
    };
    const skeinFork = async (text: string) => {
      // Every thread's events: the fork's id is not known before the fork is made.
      const subscription = h.store.subscribe({ afterSequence: await h.store.headSequence() });
      const started = performance.now();
      const { threadId } = await h.orchestrator.forkThread({ threadId: skeinSource });
      const runId = await h.send(threadId, text);
      const settled = h.orchestrator.waitForRun(runId);
      await finished(subscription, runId);
      const elapsed = performance.now() - started;
      subscription.close();
      await settled;
      return elapsed;
    };

    const { skein, native } = await pairedTurns({
      warmup: WARMUP,
      rounds: ROUNDS,
      settleMs: SETTLE_MS,
      skein: skeinFork,
      direct: directFork,
    });
    const ratio = median(skein) / median(native);
    console.log(
      `fork at ${RUNS} runs → first reply: skein median ${median(skein).toFixed(1)} ms, direct ` +
        `median ${median(native).toFixed(1)} ms, ratio ${ratio.toFixed(3)} (${ROUNDS} pairs)`,
    );
    writeBenchRows("codex-fork.json", [ratioRow("fork_first_reply_ratio", ratio, TARGET)]);
  } finally {
    await direct.close();
    await h.close();
    model.close();
  }
}

await main();
