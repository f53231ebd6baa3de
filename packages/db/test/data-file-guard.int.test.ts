import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteEventStore, type SqliteEventStore } from "../src/index.ts";

// Issue 35 (B1): the embedded store's data file is looked at before every write. The guard holds
// the file open for its header read; these check that it still sees what a fresh look would.

let dir: string;
let store: SqliteEventStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "skein-guard-"));
  store = openSqliteEventStore({ dataDir: dir });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const append = (n: number) => store.append("thread:t", "any", [{ type: "Noted", data: { n } }]);

/** Descriptors of this process open on `file` (Linux: /proc/self/fd). */
function openOn(file: string): number {
  return readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;
}

describe("issue 35: the data file looked at before every write", () => {
  it("B1: an intact file takes write after write", async () => {
    for (let n = 0; n < 20; n += 1) await append(n);
    expect(store.fault()).toBeNull();
  });

  it("B1: a header overwritten in place is seen on the next write, which is refused", async () => {
    await append(1);
    const fd = openSync(store.file, "r+");
    writeSync(fd, Buffer.alloc(16, 0x41), 0, 16, 0);
    closeSync(fd);
    await expect(append(2)).rejects.toThrow(/data file .* is damaged/);
    expect(store.fault()).toMatch(/is damaged \(its SQLite header was overwritten\)/);
  });

  it("B1: a file put in its place (another, intact SQLite file) is refused as replaced", async () => {
    await append(1);
    const copy = join(dir, "copy.db");
    copyFileSync(store.file, copy);
    renameSync(copy, store.file);
    await expect(append(2)).rejects.toThrow(/was replaced by another file/);
  });

  it("B1: a deleted file is refused as deleted", async () => {
    await append(1);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${store.file}${suffix}`, { force: true });
    await expect(append(2)).rejects.toThrow(/was deleted while Skein was running/);
  });

  it.skipIf(!existsSync("/proc/self/fd"))("closing the store lets go of the file", async () => {
    await append(1);
    const file = store.file;
    expect(openOn(file)).toBeGreaterThan(0);
    await store.close();
    expect(openOn(file)).toBe(0);
  });
});
