/**
 * Issue 34 row db_bytes_ratio: what Skein's database takes on disk ÷ what its events table takes
 * (indexes included, as PostgreSQL counts a table), for one workload: a thread of 1,000 runs and
 * 100 threads of 10 (each run a command whose output streams line by line and a reply streamed
 * a few characters per delta, as the runtimes report them),
 * written with the background checkpointer on (as the server runs it), then the long thread
 * read back in time at points across its history (a time-travel scrub). Everything beyond the
 * log (projections, past-read checkpoints, receipts) must stay near the log's own size;
 * checkpoint_bytes_ratio reports the past-read checkpoints' part (fold_checkpoints ÷ events).
 * Real SQLite; the sizes come from its pages (`dbstat`), free pages left out.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openSqliteEventStore } from "@skein/db";
import { sqliteStorage } from "@skein/db/bench";
import type { ThreadId } from "@skein/domain";
import { createSilentLogger } from "../src/logger.ts";
import { FoldCheckpointer } from "../src/read-models/fold-checkpointer.ts";
import { PastFolds } from "../src/read-models/past-folds.ts";
import { pastReads, usePastFolds } from "../src/read-models/past-reads.ts";
import { HistorySeeder } from "../test/support/history-seed.ts";
import { benchSize, writeBenchRows } from "./bench-rows.ts";
import { scriptedRunContent as content } from "./scripted-run.ts";

const LONG_RUNS = benchSize(1_000, 100);
const SHORT_THREADS = benchSize(100, 5);
const SHORT_RUNS = 10;
/** Past reads spread over the long thread's history. */
const READ_POINTS = 20;
const TARGET = 1.5;

async function seedRuns(seed: HistorySeeder, threadId: ThreadId, runs: number): Promise<void> {
  for (let i = 1; i <= runs; i += 1) {
    seed.run(threadId, `message ${i}: ${"please look at this ".repeat(4)}`, content(i));
    if (i % 200 === 0) await seed.flush();
  }
  await seed.flush();
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-bench-storage-"));
  try {
    const store = openSqliteEventStore({ dataDir: dir });
    const folds = new PastFolds();
    usePastFolds(store, folds);
    const checkpointer = new FoldCheckpointer(store, folds, { log: createSilentLogger() });
    await checkpointer.start();
    const seed = new HistorySeeder(store);
    const long = seed.createThread("long");
    const started = await store.headSequence();
    await seedRuns(seed, long, LONG_RUNS);
    const end = await store.headSequence();
    for (let t = 0; t < SHORT_THREADS; t += 1) {
      await seedRuns(seed, seed.createThread(`short ${t}`), SHORT_RUNS);
    }
    await checkpointer.settled();
    await checkpointer.stop();
    for (let i = READ_POINTS; i >= 1; i -= 1) {
      await pastReads.detail(
        store,
        long,
        started + Math.round(((end - started) * i) / READ_POINTS),
      );
    }
    await folds.flush();
    await store.close();

    const { totalBytes, byTable } = sqliteStorage(dir);
    const eventsBytes = byTable.get("events") ?? Number.NaN;
    const ratio = totalBytes / eventsBytes;
    const checkpointRatio = (byTable.get("fold_checkpoints") ?? 0) / eventsBytes;
    const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
    const largest = [...byTable].sort((a, b) => b[1] - a[1]).slice(0, 6);
    console.log(
      `database ${mib(totalBytes)}, events ${mib(eventsBytes)}; largest: ${largest
        .map(([table, bytes]) => `${table} ${mib(bytes)}`)
        .join(", ")}`,
    );
    writeBenchRows("api-storage.json", [
      {
        name: "db_bytes_ratio",
        value: +ratio.toFixed(3),
        unit: "ratio",
        target: `<= ${TARGET}`,
        pass: ratio <= TARGET,
      },
      {
        name: "checkpoint_bytes_ratio",
        value: +checkpointRatio.toFixed(3),
        unit: "ratio",
        target: "report",
        pass: true,
      },
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
