import { openSqliteEventStore } from "../src/index.ts";
import type { BenchRow } from "../src/bench/measure.ts";
import { measureSnapshotMedian } from "../src/bench/snapshot-bench.ts";
import { round } from "../src/bench/measure.ts";
import { metaSource } from "../test/support/execute-command.ts";
import { readThreadDetail, readThreadShells } from "../test/support/read-models.ts";
import { ThreadDriver } from "../test/support/thread-driver.ts";
import { benchSize } from "./smoke.ts";

const DETAIL_RUNS = benchSize(1_000, 20);
/** Per run: the user message, 8 provider items, the checkpoint: ~10k turn items in all. */
const ITEMS_PER_RUN = 8;
const SHELL_THREADS = benchSize(10_000, 200);
const ITERATIONS = benchSize(25, 3);

function row(name: string, medianMs: number): BenchRow {
  return { name, value: round(medianMs, 2), unit: "ms", target: "<= 100", pass: medianMs <= 100 };
}

/**
 * P2 read of one long thread built through decide/evolve/projectEvent/append: thread row, runs,
 * turn items, transfers, checkpoints and pending requests, assembled by `assembleThreadDetail`.
 */
async function benchDetail(): Promise<BenchRow> {
  const store = openSqliteEventStore({ temporary: true });
  try {
    const seeded = performance.now();
    const thread = new ThreadDriver(store, "detail", metaSource("detail")).create("Long thread");
    for (let run = 1; run <= DETAIL_RUNS; run += 1) {
      thread.completedRun(`step ${run}`, { items: ITEMS_PER_RUN, checkpoint: true });
    }
    await thread.flush();
    const seedMs = performance.now() - seeded;
    const read = (q: Parameters<typeof readThreadDetail>[0]) =>
      readThreadDetail(q, thread.threadId);
    const { data } = await store.snapshot(read);
    if (data?.runs.length !== DETAIL_RUNS) throw new Error("detail bench: runs missing");
    const { medianMs } = await measureSnapshotMedian({ store, read, iterations: ITERATIONS });
    console.log(
      `detail: ${data.runs.length} runs, ${data.turnItems.length} turn items, ${data.checkpoints.length} checkpoints (${await store.headSequence()} events seeded in ${Math.round(seedMs)} ms); median ${round(medianMs, 2)} ms`,
    );
    return row("detail_snapshot_ms", medianMs);
  } finally {
    await store.close();
  }
}

/** P1 read over many threads; every fourth has a queued run, so statuses differ. */
async function benchShells(): Promise<BenchRow> {
  const store = openSqliteEventStore({ temporary: true });
  try {
    const seeded = performance.now();
    const meta = metaSource("shells");
    const threads = Array.from({ length: SHELL_THREADS }, (_, i) => {
      const thread = new ThreadDriver(store, `s${i}`, meta).create(`Thread ${i}`);
      if (i % 4 === 0) thread.queue(`question ${i}`);
      return thread;
    });
    await Promise.all(threads.map((thread) => thread.flush()));
    const seedMs = performance.now() - seeded;
    const { data } = await store.snapshot(readThreadShells);
    if (data.length !== SHELL_THREADS) throw new Error("shells bench: threads missing");
    const { medianMs } = await measureSnapshotMedian({
      store,
      read: readThreadShells,
      iterations: ITERATIONS,
    });
    console.log(
      `shells: ${data.length} threads (seeded in ${Math.round(seedMs)} ms); median ${round(medianMs, 2)} ms`,
    );
    return row("shells_snapshot_ms", medianMs);
  } finally {
    await store.close();
  }
}

export async function benchSnapshots(): Promise<BenchRow[]> {
  return [await benchDetail(), await benchShells()];
}
