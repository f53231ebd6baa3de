import type { EventStore } from "@skein/db";
import { threadStreamId } from "@skein/domain";
import { afterEach, describe, expect, it } from "vitest";
import type { Logger } from "../src/orchestrator/logger.ts";
import { FOLD_FORMAT } from "../src/read-models/fold-codec.ts";
import { checkpointStream } from "../src/read-models/checkpoint-step.ts";
import { FoldCheckpointer } from "../src/read-models/fold-checkpointer.ts";
import { PastFolds } from "../src/read-models/past-folds.ts";
import { pastReads, usePastFolds } from "../src/read-models/past-reads.ts";
import { HistorySeeder } from "./support/history-seed.ts";
import {
  openFreshStore,
  readsAsLive,
  storeLocation,
  writeHistory,
} from "./support/past-read-history.ts";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Checkpoints every 10 stream events, so a short random history crosses several of them. */
const EVERY = 10;
const small = () => new PastFolds({ every: EVERY, perStream: 4, inAll: 12, storedPerStream: 5 });

/** A logger that remembers warnings (a background failure must be logged, never thrown). */
function warnings(): { log: Logger; warned: unknown[] } {
  const warned: unknown[] = [];
  const log: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (obj) => warned.push(obj),
    error: (obj) => warned.push(obj),
  } as Logger;
  return { log, warned };
}

describe.each(["sqlite", "postgres"] as const)("B8 background checkpoints on %s", (kind) => {
  it(`B8: checkpoints stored while the history was written serve the first past read in a new store instance (${kind}, seed 29, 24 steps)`, async () => {
    const { location, store: first } = await openFreshStore(kind, cleanups);
    const { log, warned } = warnings();
    const checkpointer = new FoldCheckpointer(first, small(), { log, quietMs: 0 });
    await checkpointer.start();
    cleanups.push(() => checkpointer.stop());
    // Nobody reads back in this process: only the checkpointer stores checkpoints.
    const { captures } = await writeHistory(first, location.dir, { seed: 29, steps: 24 }, cleanups);
    await checkpointer.settled();
    expect(warned).toEqual([]);
    expect(checkpointer.counts.saved).toBeGreaterThan(2);
    const newest = captures.at(-1)!;
    const streamId = threadStreamId(newest.threadId);
    const version = (await first.readStream(streamId, 0, newest.sequence)).length;
    expect(version).toBeGreaterThan(2 * EVERY);
    const positions = await first.foldCheckpointPositions(streamId, FOLD_FORMAT);
    // Bounded by the same thinning as a read's: the first and the newest kept.
    expect(positions.length).toBeLessThanOrEqual(5);
    expect(positions[0]!.version).toBe(EVERY);
    expect(positions.at(-1)!.version).toBe(version - (version % EVERY));
    await checkpointer.stop();
    await first.close();

    // "Restart": another store instance over the same data, nothing in memory, nothing read yet.
    const second = await location.open();
    cleanups.push(() => second.close());
    const reader = small();
    usePastFolds(second, reader);
    const own = await reader.at(second, streamId, newest.sequence);
    expect(own.fold.version).toBe(version);
    expect(reader.counts.loaded).toBe(1);
    expect(reader.counts.folded).toBeLessThan(EVERY);
    // Every point, newest first, equals what was read live then (so, the full fold).
    for (const then of captures.slice().reverse()) await readsAsLive(second, then);
    expect(reader.counts.loaded).toBeGreaterThan(1);
  }, 120_000);
});

describe("B8 background checkpoints at shutdown", () => {
  it("B8: stopping while a checkpoint is being written neither throws nor writes after the store closes", async () => {
    const location = await storeLocation("sqlite", cleanups);
    const store = await location.open();
    let closed = false;
    let savesAfterClose = 0;
    const watched = new Proxy(store, {
      get(target, key) {
        if (key === "saveFoldCheckpoint") {
          return (...args: Parameters<EventStore["saveFoldCheckpoint"]>) => {
            if (closed) savesAfterClose += 1;
            return target.saveFoldCheckpoint(...args);
          };
        }
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const { log, warned } = warnings();
    const folds = new PastFolds({ every: 50, storedPerStream: 5 });
    const checkpointer = new FoldCheckpointer(watched, folds, { log, quietMs: 0 });
    await checkpointer.start();
    const seed = new HistorySeeder(watched);
    const threadId = seed.createThread("long");
    for (let i = 0; i < 400; i += 1) seed.run(threadId, `message ${i}`);
    await seed.flush();
    // Stop as soon as the first step is under way, then close the store as the server does.
    while (checkpointer.counts.steps === 0) await new Promise((r) => setTimeout(r, 1));
    await checkpointer.stop();
    closed = true;
    await store.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(savesAfterClose).toBe(0);
    expect(warned).toEqual([]);
    // Not everything was written: the stop cut the step short.
    const reopened = await location.open();
    cleanups.push(() => reopened.close());
    const positions = await reopened.foldCheckpointPositions(threadStreamId(threadId), FOLD_FORMAT);
    const version = await reopened.streamVersion(threadStreamId(threadId));
    expect(positions.at(-1)?.version ?? 0).toBeLessThan(version - (version % 50));
  }, 60_000);
});

describe("B8 background checkpoint steps", () => {
  it("B8: a step continues from the stored compact checkpoint, folds one interval's events, and reads back as the full fold", async () => {
    const { store } = await openFreshStore("sqlite", cleanups);
    const seed = new HistorySeeder(store);
    const threadId = seed.createThread("steps");
    for (let i = 0; i < 60; i += 1) seed.run(threadId, `message ${i}`);
    await seed.flush();
    const streamId = threadStreamId(threadId);
    const events = await store.readStream(streamId);
    const at = (version: number) => events[version - 1]!.sequence;
    const writer = new PastFolds({ every: 50, storedPerStream: 5 });
    const step = { every: 50, stopped: () => false };
    const stored = writer.storedFolds!;
    const first = await checkpointStream(store, stored, streamId, at(100), step);
    expect(first).toMatchObject({ folded: 100, saved: 1, continued: false });
    const second = await checkpointStream(store, stored, streamId, at(250), step);
    expect(second).toMatchObject({ folded: 150, saved: 1, continued: true, refolded: false });
    const positions = await store.foldCheckpointPositions(streamId, FOLD_FORMAT);
    expect(positions.map((p) => p.version)).toEqual([100, 250]);
    // A fresh reader starts from the continued one; what it reads is the whole fold's answer.
    const reader = new PastFolds({ every: 50, storedPerStream: 5 });
    const whole = new PastFolds({ every: 50, storedPerStream: 0 });
    const point = at(270);
    usePastFolds(store, reader);
    const fromStored = await pastReads.detail(store, threadId, point);
    expect(reader.counts.loaded).toBe(1);
    expect(reader.counts.folded).toBe(20);
    usePastFolds(store, whole);
    expect(fromStored).toEqual(await pastReads.detail(store, threadId, point));
    expect(whole.counts.folded).toBeGreaterThanOrEqual(270);
  }, 60_000);
});
