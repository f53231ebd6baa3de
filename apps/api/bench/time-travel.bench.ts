/**
 * Issue 18 rows: a past read (B8) costs what the thread held then, not what came after.
 *
 * - time_travel_ms: `thread.detail` of a thread as it stood at about 1,000 runs, read after
 *   100,000 more events were appended to that thread (median of a scrub back over 2,250 events).
 * - time_travel_cold_ms: the first such read, which folds from the start (no checkpoint yet).
 * - time_travel_ratio: that read ÷ the same past read of a twin thread that has nothing after
 *   the read point (so only the history after the point differs).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openSqliteEventStore } from "@skein/db";
import type { ThreadId } from "@skein/domain";
import { PastFolds } from "../src/read-models/past-folds.ts";
import { pastReads, usePastFolds } from "../src/read-models/past-reads.ts";
import { HistorySeeder } from "../test/support/history-seed.ts";
import { type BenchRow, writeBenchRows } from "./bench-rows.ts";

const RUNS_AT_POINT = Number(process.env.SKEIN_BENCH_TIME_TRAVEL_RUNS ?? 1_000);
const EVENTS_AFTER = Number(process.env.SKEIN_BENCH_TIME_TRAVEL_AFTER ?? 100_000);
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

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-bench-time-travel-"));
  const store = openSqliteEventStore({ dataDir: dir });
  try {
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

    const folds = new PastFolds();
    usePastFolds(store, folds);
    // The first read folds the thread from its start and keeps checkpoints on the way.
    const coldMs = await time(() => pastReads.detail(store, big, point));
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
    console.log(
      `time travel: ${folds.size} checkpoints; continued from compact ${folds.counts.compact}, full ${folds.counts.full}; reads ${past.map((ms) => ms.toFixed(0)).join(" ")}`,
    );
    const rows: BenchRow[] = [
      {
        name: "time_travel_cold_ms",
        value: +coldMs.toFixed(2),
        unit: "ms",
        target: "<= 2000",
        pass: coldMs <= 2000,
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
