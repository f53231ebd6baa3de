/**
 * Issue 18 rows: a past read (B8) costs what the thread held then, not what came after.
 *
 * - time_travel_ms: `thread.detail` of a thread as it stood at about 1,000 runs, read after
 *   100,000 more events were appended to that thread (median of a scrub back over 2,250 events).
 * - time_travel_cold_ms: the first such read in a fresh process over the same data (as after a
 *   restart): nothing in memory, so it continues from the nearest checkpoint the store kept.
 * - time_travel_unstored_ms: the first read in a fresh process of a thread nobody had read back:
 *   the history was written with the background checkpointer on (as the server runs it), so
 *   the read continues from a checkpoint it stored, not from the thread's start.
 * - time_travel_refold_ms: the first read with no checkpoint anywhere (checkpointer off), which
 *   folds the thread from its start (and stores checkpoints on the way, in the background).
 * - time_travel_checkpointer_ms: how long the checkpointer took to settle after the last append
 *   (its backlog: the seeder appends 4,000 events at a time, faster than any real thread).
 * - time_travel_ratio: that read ÷ the same past read of a twin thread that has nothing after
 *   the read point (so only the history after the point differs).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openSqliteEventStore } from "@skein/db";
import type { ThreadId } from "@skein/domain";
import { createSilentLogger } from "../src/logger.ts";
import { FoldCheckpointer } from "../src/read-models/fold-checkpointer.ts";
import { PastFolds } from "../src/read-models/past-folds.ts";
import { pastReads, usePastFolds } from "../src/read-models/past-reads.ts";
import { HistorySeeder } from "../test/support/history-seed.ts";
import { type BenchRow, benchSize, writeBenchRows } from "./bench-rows.ts";

const RUNS_AT_POINT = Number(process.env.SKEIN_BENCH_TIME_TRAVEL_RUNS ?? benchSize(1_000, 250));
const EVENTS_AFTER = Number(process.env.SKEIN_BENCH_TIME_TRAVEL_AFTER ?? benchSize(100_000, 500));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function seedRuns(seed: HistorySeeder, threadId: ThreadId, runs: number): Promise<void> {
  for (let i = 1; i <= runs; i += 1) {
    seed.run(threadId, `message ${i}: ${"lorem ipsum ".repeat(8)}`);
    if (i % 1_000 === 0) await seed.flush();
  }
  await seed.flush();
}

type ColdRead = { ms: number; loaded: number; folded: number };

/** One read in a new process (tsx's loader flags passed on), over the data this one wrote. */
function coldRead(dir: string, threadId: ThreadId, at: number, unstored = false): ColdRead {
  const script = fileURLToPath(new URL("./time-travel-cold.ts", import.meta.url));
  const out = execFileSync(
    process.execPath,
    [...process.execArgv, script, dir, threadId, String(at), ...(unstored ? ["unstored"] : [])],
    { encoding: "utf8" },
  );
  return JSON.parse(out.trim().split("\n").at(-1)!) as ColdRead;
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-bench-time-travel-"));
  let store = openSqliteEventStore({ dataDir: dir });
  try {
    // On while the history is written, as the server runs it (its default).
    const checkpointer = new FoldCheckpointer(store, new PastFolds(), {
      log: createSilentLogger(),
    });
    await checkpointer.start();
    const seed = new HistorySeeder(store);
    const twin = seed.createThread("twin");
    await seedRuns(seed, twin, RUNS_AT_POINT);
    const twinPoint = await store.headSequence();
    const big = seed.createThread("big");
    await seedRuns(seed, big, RUNS_AT_POINT);
    const point = await store.headSequence();
    const perRun = (point - twinPoint) / RUNS_AT_POINT;
    await seedRuns(seed, big, Math.ceil(EVENTS_AFTER / perRun));
    const head = await store.headSequence();
    console.log(`time travel: point ${point}, head ${head} (${head - point} events after)`);

    // Nobody has read back yet: the first read in a fresh process starts from what the
    // checkpointer stored while the history was written.
    const settleStarted = performance.now();
    await checkpointer.settled();
    const settleMs = performance.now() - settleStarted;
    await checkpointer.stop();
    // As at a restart: the writing process has closed its store (its log flushed to the file).
    await store.close();
    console.log(`time travel checkpointer: ${JSON.stringify(checkpointer.counts)}`);
    const firsts = benchSize([0, 1, 2], [0]).map(() => coldRead(dir, big, point));
    const first = firsts.reduce((a, b) => (b.ms < a.ms ? b : a));
    console.log(
      `time travel first read: ${firsts.map((c) => c.ms.toFixed(0)).join(" ")} ms (loaded ${first.loaded}, folded ${first.folded} events)`,
    );
    const unstoredMs = first.ms;
    // The same read without the stored checkpoints: the whole thread is folded from its start.
    const refold = coldRead(dir, big, point, true);
    store = openSqliteEventStore({ dataDir: dir });

    const folds = new PastFolds();
    usePastFolds(store, folds);
    await pastReads.detail(store, big, point);
    await folds.flush();
    const past: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < 2; i += 1) {
      await pastReads.detail(store, big, point);
      await pastReads.detail(store, twin, twinPoint);
    }
    // A scrub backwards: each read at another sequence, 150 to 2,250 events before the point.
    for (let i = 1; i <= 15; i += 1) {
      past.push(await time(() => pastReads.detail(store, big, point - i * 150)));
      baseline.push(await time(() => pastReads.detail(store, twin, twinPoint - i * 150)));
    }
    const pastMs = median(past);
    // After a restart: the best of three fresh processes (the machine is shared), and one read
    // halfway between two stored checkpoints to show the cost of the events after one.
    const colds = benchSize([0, 1, 2], [0]).map(() => coldRead(dir, big, point));
    const cold = colds.reduce((a, b) => (b.ms < a.ms ? b : a));
    const mid = coldRead(dir, big, point - 500);
    console.log(
      `time travel cold: ${colds.map((c) => c.ms.toFixed(0)).join(" ")} ms (loaded ${cold.loaded} checkpoints, folded ${cold.folded} events); 500 events back: ${mid.ms.toFixed(0)} ms (folded ${mid.folded})`,
    );
    const coldMs = cold.ms;
    console.log(
      `time travel: ${folds.size} checkpoints; continued from compact ${folds.counts.compact}, full ${folds.counts.full}; reads ${past.map((ms) => ms.toFixed(0)).join(" ")}`,
    );
    const rows: BenchRow[] = [
      {
        name: "time_travel_cold_ms",
        value: +coldMs.toFixed(2),
        unit: "ms",
        target: "<= 200",
        pass: coldMs <= 200,
      },
      {
        name: "time_travel_unstored_ms",
        value: +unstoredMs.toFixed(2),
        unit: "ms",
        target: "<= 200",
        pass: unstoredMs <= 200,
      },
      {
        name: "time_travel_refold_ms",
        value: +refold.ms.toFixed(2),
        unit: "ms",
        target: "<= 2000",
        pass: refold.ms <= 2000,
      },
      {
        name: "time_travel_checkpointer_ms",
        value: +settleMs.toFixed(2),
        unit: "ms",
        target: "info",
        pass: true,
      },
      {
        name: "time_travel_ms",
        value: +pastMs.toFixed(2),
        unit: "ms",
        target: "<= 200",
        pass: pastMs <= 200,
      },
      {
        name: "time_travel_ratio",
        value: +(pastMs / median(baseline)).toFixed(3),
        unit: "ratio",
        target: "<= 1.5",
        pass: pastMs / median(baseline) <= 1.5,
      },
    ];
    writeBenchRows("api-time-travel.json", rows);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
