/**
 * The time-travel bench's cold read, in a process of its own (as after a restart): opens the
 * SQLite store the bench seeded, reads one thread's detail at a past sequence once, and prints
 * how long that took and where its fold started, as one JSON line.
 * Usage: tsx bench/time-travel-cold.ts <dataDir> <threadId> <atSequence> [unstored]
 * (`unstored`: stored checkpoints are not read, so the fold starts from the thread's start).
 */
import { openSqliteEventStore } from "@skein/db";
import type { ThreadId } from "@skein/domain";
import { PastFolds } from "../src/read-models/past-folds.ts";
import { pastReads, usePastFolds } from "../src/read-models/past-reads.ts";

const [dataDir, threadId, at, unstored] = process.argv.slice(2);
if (!dataDir || !threadId || !at) throw new Error("usage: time-travel-cold.ts <dir> <thread> <at>");
const store = openSqliteEventStore({ dataDir });
try {
  const folds = new PastFolds(unstored === "unstored" ? { storedPerStream: 0 } : {});
  usePastFolds(store, folds);
  const started = performance.now();
  await pastReads.detail(store, threadId as ThreadId, Number(at));
  const ms = performance.now() - started;
  // Whatever this read stored is not part of its time.
  await folds.flush();
  console.log(JSON.stringify({ ms, ...folds.counts }));
} finally {
  await store.close();
}
