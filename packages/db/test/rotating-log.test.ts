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
});
