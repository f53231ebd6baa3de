import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createRotatingLog } from "../src/index.ts";
import { tempDir } from "./support/temp-dir.ts";

function dirBytes(dir: string): number {
  return fs.readdirSync(dir).reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
}

describe("rotating raw provider log (E18)", () => {
  it("E18: keeps total size within maxFiles × maxFileBytes and returns <file>:<line> ids", () => {
    const dir = tempDir();
    const log = createRotatingLog({ dir, maxFileBytes: 1_024, maxFiles: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 500; i += 1) {
      ids.push(log.record({ provider: "codex", i, frame: "x".repeat(i % 50) }));
      expect(dirBytes(dir)).toBeLessThanOrEqual(3 * 1_024);
    }
    expect(ids[0]).toBe("raw-000001.jsonl:1");
    expect(ids[1]).toBe("raw-000001.jsonl:2");
    expect(fs.readdirSync(dir).sort()).toHaveLength(3);
    const last = ids.at(-1) ?? "";
    expect(log.read(last)).toMatchObject({ i: 499 });
    expect(log.read(ids[0] ?? "")).toBeUndefined(); // rotated away
    expect(log.read("nonsense")).toBeUndefined();
    log.close();
  });

  it("replaces a record larger than a file with a stub, keeping the bound strict", () => {
    const dir = tempDir();
    const log = createRotatingLog({ dir, maxFileBytes: 512, maxFiles: 2 });
    const id = log.record({ huge: "y".repeat(5_000) });
    expect(log.read(id)).toMatchObject({ truncated: true });
    expect(dirBytes(dir)).toBeLessThanOrEqual(2 * 512);
    log.close();
  });

  it("a reopened log continues in a new file and keeps earlier ids readable", () => {
    const dir = tempDir();
    const first = createRotatingLog({ dir, maxFileBytes: 4_096, maxFiles: 4 });
    const earlier = first.record({ n: 1 });
    first.close();
    const second = createRotatingLog({ dir, maxFileBytes: 4_096, maxFiles: 4 });
    expect(second.record({ n: 2 })).toBe("raw-000002.jsonl:1");
    expect(second.read(earlier)).toEqual({ n: 1 });
    second.close();
  });

  it("never throws on an unserializable frame", () => {
    const dir = tempDir();
    const log = createRotatingLog({ dir, maxFileBytes: 1_024, maxFiles: 2 });
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    expect(log.read(log.record(cyclic))).toHaveProperty("unserializable");
    log.close();
  });

  it("B8: reads a range back across files, in order, filtered and bounded; rotated files are skipped", () => {
    const dir = tempDir();
    const log = createRotatingLog({ dir, maxFileBytes: 256, maxFiles: 3 });
    const ids = Array.from({ length: 12 }, (_, i) =>
      log.record({ session: i % 2 === 0 ? "a" : "b", i, pad: "p".repeat(40) }),
    );
    expect(new Set(ids.map((id) => id.split(":")[0])).size).toBeGreaterThan(2);
    const first = ids[4] ?? "";
    const last = ids[11] ?? "";
    const all = log.readRange(first, last);
    expect(all.map((r) => (r.record as { i: number }).i)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    expect(all.map((r) => r.rawEventId)).toEqual(ids.slice(4));
    const keep = (record: unknown) => (record as { session: string }).session === "a";
    const evens = log.readRange(first, last, { keep, limit: 3 });
    expect(evens.map((r) => (r.record as { i: number }).i)).toEqual([4, 6, 8]);
    // The oldest files rotated away: a range starting there returns only what is left.
    const kept = log.readRange(ids[0] ?? "", last);
    expect(kept.at(-1)?.rawEventId).toBe(last);
    expect(kept.length).toBeLessThan(12);
    expect(log.readRange("nonsense", last)).toEqual([]);
    const many = log.readMany([ids[5] ?? "", ids[11] ?? "", ids[0] ?? "", "nonsense"]);
    expect([...many.keys()]).toEqual([ids[5], ids[11]]);
    expect(many.get(ids[5] ?? "")).toMatchObject({ i: 5 });
    log.close();
  });
});
