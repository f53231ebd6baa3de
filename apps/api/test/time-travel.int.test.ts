import type { ThreadId } from "@skein/domain";
import { afterEach, describe, expect, it } from "vitest";
import { PastFolds } from "../src/read-models/past-folds.ts";
import { pastReads, usePastFolds } from "../src/read-models/past-reads.ts";
import { readThreadTimeline } from "../src/read-models/timeline.ts";
import { openFreshStore, writeHistory } from "./support/past-read-history.ts";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(["sqlite", "postgres"] as const)("B8 time travel on %s", (kind) => {
  it(`B8: reading detail, graph and shells at a past sequence equals what was read live then (${kind}, random commands, seed 11)`, async () => {
    const { location, store } = await openFreshStore(kind, cleanups);
    const { captures, threads } = await writeHistory(
      store,
      location.dir,
      { seed: 11, steps: 14 },
      cleanups,
    );
    expect(captures.length).toBeGreaterThanOrEqual(10);
    expect(threads.length).toBeGreaterThanOrEqual(2);

    for (const then of captures) {
      const at = then.sequence;
      expect(await pastReads.detail(store, then.threadId, at)).toEqual(then.detail);
      expect(await pastReads.detail(store, then.threadId, at, { limit: 2 })).toEqual(then.twoRuns);
      expect(await pastReads.graph(store, then.threadId, at)).toEqual(then.graph);
      expect(await pastReads.shells(store, at)).toEqual(then.shells);
    }
    // Again from checkpoints every 3 events of a stream, read backwards and then forwards: a
    // read continued from a checkpoint equals one folded from the start.
    const folds = new PastFolds({ every: 3, perStream: 4, inAll: 12 });
    usePastFolds(store, folds);
    for (const then of [...captures.slice().reverse(), ...captures]) {
      const at = then.sequence;
      expect(await pastReads.detail(store, then.threadId, at)).toEqual(then.detail);
      expect(await pastReads.graph(store, then.threadId, at)).toEqual(then.graph);
    }
    expect(folds.size).toBeGreaterThan(0);
    expect(folds.size).toBeLessThanOrEqual(12);
    // Both ways of continuing were taken: from the compact state, and (history needed) the full.
    expect(folds.counts.compact).toBeGreaterThan(0);
    expect(folds.counts.full).toBeGreaterThan(0);
    // Before a thread existed it is not found; beyond the head is refused.
    const last = threads.at(-1)!;
    const born = (await store.readStream(`thread-${last}`))[0]!.sequence;
    await expect(pastReads.detail(store, last, born - 1)).rejects.toThrow(/not found/i);
    const head = await store.headSequence();
    await expect(pastReads.detail(store, last, head + 1)).rejects.toThrow(/beyond the log's head/);

    // The scrubber's stops are the thread's own events, and each one reads as the thread then.
    for (const threadId of threads) {
      const timeline = await readThreadTimeline(store, threadId);
      const stream = await store.readStream(`thread-${threadId}`);
      expect(timeline.points.map((p) => p.sequence)).toEqual(stream.map((e) => e.sequence));
      expect(timeline.points.map((p) => p.type)).toEqual(stream.map((e) => e.type));
      expect(timeline.total).toBe(stream.length);
      expect(timeline.headSequence).toBeGreaterThanOrEqual(stream.at(-1)!.sequence);
      for (const then of captures.filter((c) => c.threadId === threadId)) {
        const stop = timeline.points.findLast((p) => p.sequence <= then.sequence)!;
        const atStop = await pastReads.detail(store, threadId, stop.sequence);
        expect({ ...atStop, snapshotSequence: then.sequence }).toEqual(then.detail);
      }
    }
    await expect(readThreadTimeline(store, "thr_missing" as ThreadId)).rejects.toThrow(
      /not found/i,
    );
  }, 120_000);
});
