import fs from "node:fs";
import { type EventStore, openEventStore, openSqliteEventStore } from "@skein/db";
import type { ThreadId } from "@skein/domain";
import { afterEach, describe, expect, it } from "vitest";
import { type GenerateStats, generateHistory } from "../bench/generate/history-generator.ts";
import { createReadModels } from "../src/read-models/index.ts";
import { scratchSchema } from "./support/postgres.ts";
import { tempDir } from "./support/test-server.ts";

const SMALL = { threads: 300, events: 4_000 };
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sqliteStore(): Promise<EventStore> {
  const dir = tempDir("skein-generate-");
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const store = openSqliteEventStore({ dataDir: dir });
  cleanups.push(() => store.close());
  return store;
}

/** Every stored event without the store's clock: what the seed alone decides. */
async function streamContents(store: EventStore) {
  const out: unknown[] = [];
  for (let after = 0; ; ) {
    const page = await store.readAll(after, 5_000);
    if (page.length === 0) return out;
    for (const e of page) out.push([e.sequence, e.streamId, e.streamVersion, e.type, e.data]);
    after = page.at(-1)?.sequence ?? after;
  }
}

async function expectReadable(store: EventStore, stats: GenerateStats): Promise<void> {
  const read = createReadModels(store);
  const first = await read.shells({ limit: 100 });
  expect(first.threads).toHaveLength(100);
  expect(first.nextCursor).not.toBeNull();
  const all = await read.shells({ limit: 500 });
  expect(all.threads).toHaveLength(stats.threads);
  const largest = await read.detail(stats.largestThread.threadId);
  expect(largest.runs.length).toBeGreaterThan(1);
  const shown = largest.turnItems.map((item) => item.type);
  expect(shown).toContain("command_execution");
  const output = largest.turnItems.find((item) => item.type === "command_execution");
  expect(output && "output" in output ? String(output.output).length : 0).toBeGreaterThan(0);
  // The deepest fork shows what it inherits through every fork above it.
  const tip = await read.detail(stats.deepestForkId as ThreadId);
  expect(tip.turnItems.length).toBeGreaterThan(0);
  expect(tip.visibleTurnItems?.length ?? 0).toBeGreaterThan(tip.turnItems.length);
}

describe("large-history generator (issue 20)", () => {
  it("is deterministic for a seed, and its data dir opens and reads through the read models", async () => {
    const [a, b, other] = [await sqliteStore(), await sqliteStore(), await sqliteStore()];
    const statsA = await generateHistory(a, { ...SMALL, seed: 42 });
    const statsB = await generateHistory(b, { ...SMALL, seed: 42 });
    await generateHistory(other, { ...SMALL, seed: 43 });
    const contents = await streamContents(a);
    expect(contents.length).toBe(statsA.events);
    expect(await streamContents(b)).toEqual(contents);
    expect(await streamContents(other)).not.toEqual(contents);
    // Within a run's worth per thread of the asked-for count, with the shapes the benches need.
    expect(statsA.events).toBeGreaterThan(SMALL.events * 0.9);
    expect(statsA.events).toBeLessThan(SMALL.events * 1.2);
    expect(statsA.forksOfForks).toBeGreaterThan(0);
    expect(statsA.toolCalls).toBeGreaterThan(0);
    expect({ ...statsB, elapsedMs: 0 }).toEqual({ ...statsA, elapsedMs: 0 });
    await expectReadable(a, statsA);
  });

  it("writes the same streams to PostgreSQL, which read back the same way", async () => {
    const scratch = await scratchSchema();
    cleanups.push(() => scratch.drop());
    const pg = await openEventStore({ url: scratch.url });
    cleanups.push(() => pg.close());
    const sqlite = await sqliteStore();
    const stats = await generateHistory(pg, { ...SMALL, seed: 42 });
    await generateHistory(sqlite, { ...SMALL, seed: 42 });
    expect(await streamContents(pg)).toEqual(await streamContents(sqlite));
    await expectReadable(pg, stats);
  });
});
