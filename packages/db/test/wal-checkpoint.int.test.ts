import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openSqliteEventStore } from "../src/index.ts";
import { type CheckpointReport, WalCheckpointer } from "../src/sqlite/wal-checkpointer.ts";
import { tempDir } from "./support/temp-dir.ts";

/*
 * Issue 28: WAL checkpoints run on a worker thread's connection, requested every few commits,
 * instead of inside whichever append crosses SQLite's threshold (a checkpoint waits for fsyncs).
 */

const event = (n: number) => [{ type: "T", data: { n, text: "x".repeat(2_000) } }];

describe("WAL checkpoints off the appends", () => {
  it("the background connection copies the appends' WAL frames into the database file", async () => {
    const reports: CheckpointReport[] = [];
    let reported: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      reported = resolve;
    });
    const dataDir = tempDir();
    const store = openSqliteEventStore({
      dataDir,
      onWalCheckpoint: (report) => {
        reports.push(report);
        reported();
      },
    });
    const sizeBefore = fs.statSync(store.file).size;
    for (let n = 0; n < 8; n += 1) await store.append("s", n, event(n));
    await first;
    expect(reports[0]?.log ?? 0).toBeGreaterThan(0);
    // No reader held the WAL: every frame reached the database file, which grew with them.
    expect(reports[0]?.checkpointed).toBe(reports[0]?.log);
    expect(fs.statSync(store.file).size).toBeGreaterThan(sizeBefore);
    await store.close();
    // The worker's connection is closed too: the last one out removed the WAL.
    expect(fs.existsSync(`${store.file}-wal`)).toBe(false);
    const reopened = openSqliteEventStore({ dataDir });
    expect((await reopened.readStream("s")).map((e) => (e.data as { n: number }).n)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7,
    ]);
    await reopened.close();
  });

  it("a worker that cannot start says so once, and asks nothing more", async () => {
    const dir = tempDir();
    const store = openSqliteEventStore({ dataDir: dir });
    await store.append("s", 0, event(0));
    const failures: string[] = [];
    let failed: () => void = () => {};
    const gone = new Promise<void>((resolve) => {
      failed = resolve;
    });
    const checkpointer = new WalCheckpointer({
      file: store.file,
      busyTimeoutMs: 1_000,
      driver: path.join(dir, "no-such-driver.js"),
      onFailure: (error) => {
        failures.push(error);
        failed();
      },
    });
    for (let n = 0; n < 8; n += 1) checkpointer.committed();
    await gone;
    for (let n = 0; n < 32; n += 1) checkpointer.committed();
    await checkpointer.close();
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/no-such-driver/);
    await store.close();
  });
});
