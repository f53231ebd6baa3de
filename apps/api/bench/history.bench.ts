/**
 * Issue 20 rows: reads and commands that cost what a screen shows, not what the history holds.
 * Histories are built through the store's public append path (HistorySeeder: real commands,
 * decided in memory, appended in large batches) on real SQLite.
 *
 * - detail_window_ratio / detail_window_ms: the latest-50-runs detail of a 10,000-run thread
 *   ÷ the same read of a 50-run thread, and its time.
 * - fork_of_fork_detail_ms: the latest window of a 5-deep fork chain over the 10,000-run root.
 * - shells_page_ms / shells_search_ms: the first page (100) of 100,000 threads, and a title search.
 * - command_cost_ratio: one command on a 10,000-event thread ÷ on a 10-event thread, each with a
 *   cold aggregate cache (a new repository per command).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type EventStore, openEventStore, openSqliteEventStore } from "@skein/db";
import type { ThreadId } from "@skein/domain";
import { AggregateRepository } from "../src/orchestrator/commands/aggregate-repository.ts";
import { createReadModels } from "../src/read-models/index.ts";
import { createIdGenerator } from "../src/runtime/id-generator.ts";
import { HistorySeeder } from "../test/support/history-seed.ts";
import { scratchSchema } from "../test/support/postgres.ts";
import { type BenchRow, benchSize, writeBenchRows } from "./bench-rows.ts";

const BIG_RUNS = Number(process.env.SKEIN_BENCH_HISTORY_RUNS ?? benchSize(10_000, 100));
const THREADS = Number(process.env.SKEIN_BENCH_HISTORY_THREADS ?? benchSize(100_000, 500));
/** SKEIN_BENCH_HISTORY_PG=1 runs the rows on a scratch schema of the test PostgreSQL database. */
const ON_POSTGRES = process.env.SKEIN_BENCH_HISTORY_PG === "1";
/** Row groups to run (detail, command, shells), comma-separated; all by default. */
const ONLY = new Set((process.env.SKEIN_BENCH_HISTORY_ONLY ?? "detail,command,shells").split(","));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** Medians of `rounds` alternating timings of a and b, so machine noise hits both alike. */
async function alternate(
  rounds: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number, number]> {
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < 3; i += 1) await Promise.all([a(), b()]);
  for (let i = 0; i < rounds; i += 1) {
    as.push(await time(a));
    bs.push(await time(b));
  }
  return [median(as), median(bs)];
}

function row(name: string, value: number, unit: string, target: number, ratio = false): BenchRow {
  return {
    name: ON_POSTGRES ? `pg_${name}` : name,
    value: +value.toFixed(ratio ? 3 : 2),
    unit,
    target: `<= ${target}`,
    pass: value <= target,
  };
}

async function seedRuns(seed: HistorySeeder, threadId: ThreadId, runs: number): Promise<void> {
  for (let i = 1; i <= runs; i += 1) {
    seed.run(threadId, `message ${i}: ${"lorem ipsum ".repeat(8)}`);
    if (i % 1_000 === 0) await seed.flush();
  }
  await seed.flush();
}

/** The seeder holds every thread's state in memory: let it go before anything is timed. */
async function seedDetailThreads(store: EventStore) {
  const seed = new HistorySeeder(store);
  const small = seed.createThread("small");
  const big = seed.createThread("big");
  await seedRuns(seed, small, 50);
  await seedRuns(seed, big, BIG_RUNS);
  let tip = big;
  for (let depth = 0; depth < 5; depth += 1) {
    tip = await seed.fork(tip);
    seed.run(tip, `fork ${depth + 1}`);
    await seed.flush();
  }
  return { small, big, tip };
}

async function detailRows(store: EventStore): Promise<BenchRow[]> {
  const { small, big, tip } = await seedDetailThreads(store);
  const read = createReadModels(store);
  const [bigMs, smallMs] = await alternate(
    benchSize(41, 3),
    () => read.detail(big),
    () => read.detail(small),
  );
  const forkTimes: number[] = [];
  for (let i = 0; i < benchSize(41, 3); i += 1) forkTimes.push(await time(() => read.detail(tip)));
  return [
    row("detail_window_ratio", bigMs / smallMs, "ratio", 1.5, true),
    row("detail_window_ms", bigMs, "ms", 20),
    row("fork_of_fork_detail_ms", median(forkTimes), "ms", 30),
  ];
}

async function seedCommandThreads(store: EventStore) {
  const seed = new HistorySeeder(store);
  const small = seed.createThread("ten events");
  seed.run(small, "one run");
  await seed.flush();
  const big = seed.createThread("ten thousand events");
  // Runs of ~11 events each: about 10,000 events in all.
  await seedRuns(seed, big, benchSize(910, 20));
  return { small, big };
}

async function commandRow(store: EventStore): Promise<BenchRow> {
  const { small, big } = await seedCommandThreads(store);
  const [smallVersion, bigVersion] = await Promise.all([
    store.streamVersion(`thread-${small}`),
    store.streamVersion(`thread-${big}`),
  ]);
  const ids = createIdGenerator();
  const clock = () => new Date();
  let n = 0;
  const command = (threadId: ThreadId) => async () => {
    n += 1;
    // A new repository: nothing cached, as after a restart or an eviction.
    const repository = new AggregateRepository(store, clock, ids);
    await repository.execute({ type: "UpdateThreadSettings", data: { threadId, title: `t${n}` } });
  };
  // The seeding left a large heap behind: collect it now (with --expose-gc), or its marking
  // work lands on whichever side allocates during the timed rounds.
  (globalThis as { gc?: () => void }).gc?.();
  const [bigMs, smallMs] = await alternate(benchSize(25, 3), command(big), command(small));
  console.log(
    `command_cost: ${bigVersion} events ${bigMs.toFixed(2)} ms, ${smallVersion} events ${smallMs.toFixed(2)} ms`,
  );
  return row("command_cost_ratio", bigMs / smallMs, "ratio", 1.5, true);
}

async function seedShells(store: EventStore): Promise<void> {
  const seed = new HistorySeeder(store);
  for (let i = 0; i < THREADS; i += 1) {
    seed.createThread(i % 1_000 === 0 ? `Quarterly report ${i}` : `Conversation ${i}`);
    if (i % 5_000 === 4_999) await seed.flush();
  }
  await seed.flush();
}

async function shellRows(store: EventStore): Promise<BenchRow[]> {
  await seedShells(store);
  const read = createReadModels(store);
  const page: number[] = [];
  const search: number[] = [];
  for (let i = 0; i < benchSize(25, 3); i += 1) {
    page.push(await time(() => read.shells({ limit: 100 })));
    search.push(await time(() => read.shells({ limit: 100, query: "quarterly" })));
  }
  return [
    row("shells_page_ms", median(page), "ms", 20),
    row("shells_search_ms", median(search), "ms", 50),
  ];
}

async function withStore<T>(fn: (store: EventStore) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-bench-history-"));
  const scratch = ON_POSTGRES ? await scratchSchema() : null;
  const store = scratch
    ? await openEventStore({ url: scratch.url })
    : openSqliteEventStore({ dataDir: dir });
  try {
    return await fn(store);
  } finally {
    await store.close();
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const started = performance.now();
  const rows = [
    ...(ONLY.has("detail") ? await withStore(detailRows) : []),
    ...(ONLY.has("command") ? [await withStore(commandRow)] : []),
    ...(ONLY.has("shells") ? await withStore(shellRows) : []),
  ];
  writeBenchRows(ON_POSTGRES ? "api-history-pg.json" : "api-history.json", rows);
  console.log(`history bench took ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

await main();
