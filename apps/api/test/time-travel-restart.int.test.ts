import type { EventStore, FoldCheckpoint } from "@skein/db";
import { threadStreamId } from "@skein/domain";
import { afterEach, describe, expect, it } from "vitest";
import { FOLD_FORMAT } from "../src/read-models/fold-codec.ts";
import { packBody, unpackBody } from "../src/read-models/fold-packing.ts";
import { PastFolds } from "../src/read-models/past-folds.ts";
import { usePastFolds } from "../src/read-models/past-reads.ts";
import {
  type Capture,
  readsAsLive,
  openFreshStore,
  writeHistory,
} from "./support/past-read-history.ts";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Checkpoints every 3 events of a stream, so a short random history crosses many of them. */
const small = () => new PastFolds({ every: 3, perStream: 4, inAll: 12, storedPerStream: 5 });

/**
 * The store with every stored thread checkpoint's compact state emptied of its runs (all of them
 * "left out"), as a compact state may leave out any history, so a read must fall back.
 */
function starving(store: EventStore): EventStore {
  const starve = async (found: FoldCheckpoint | null): Promise<FoldCheckpoint | null> => {
    if (!found) return found;
    const body = (await unpackBody(found.body))!;
    const newline = body.indexOf("\n");
    const header = JSON.parse(body.slice(0, newline)) as {
      compact: boolean;
      state: string;
      leftOut: string[];
    };
    if (!header.compact) return found;
    const mark = header.state.indexOf("\n");
    const encoded = JSON.parse(header.state.slice(mark + 1)) as {
      state: { runs: { $map: [string, unknown][] } };
    };
    header.leftOut.push(...encoded.state.runs.$map.map(([id]) => id));
    encoded.state.runs.$map = [];
    header.state = `${header.state.slice(0, mark + 1)}${JSON.stringify(encoded)}`;
    return { ...found, body: await packBody(`${JSON.stringify(header)}${body.slice(newline)}`) };
  };
  return new Proxy(store, {
    get(target, key) {
      if (key === "readFoldCheckpoint") {
        return async (...args: Parameters<EventStore["readFoldCheckpoint"]>) =>
          starve(await target.readFoldCheckpoint(...args));
      }
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe.each(["sqlite", "postgres"] as const)("B8 past reads after a restart on %s", (kind) => {
  it(`B8: a new store instance reads past sequences from stored checkpoints, exactly as they were read live (${kind}, seed 23, 24 steps)`, async () => {
    const { location, store: first } = await openFreshStore(kind, cleanups);
    const { captures, threads } = await writeHistory(
      first,
      location.dir,
      { seed: 23, steps: 24 },
      cleanups,
    );
    expect(captures.length).toBeGreaterThanOrEqual(12);
    expect(threads.length).toBeGreaterThanOrEqual(2);
    // Threads read live at some point (a fork is, once a later step picks it).
    const read = [...new Set(captures.map((c) => c.threadId))];
    expect(read.length).toBeGreaterThanOrEqual(2);
    // The first process reads the newest points, which folds every stream from its start and
    // stores its checkpoints in the background.
    const writer = small();
    usePastFolds(first, writer);
    for (const threadId of read) {
      await readsAsLive(first, captures.findLast((c) => c.threadId === threadId)!);
    }
    await writer.flush();
    const stored = await first.foldCheckpointPositions(threadStreamId(read[0]!), FOLD_FORMAT);
    expect(stored.length).toBeGreaterThan(1);
    // Bounded: thinned to storedPerStream, the first and the newest kept.
    expect(stored.length).toBeLessThanOrEqual(5);
    expect(stored[0]!.version).toBe(3);
    await first.close();

    // "Restart": another store instance over the same data, with nothing in memory.
    const second = await location.open();
    cleanups.push(() => second.close());
    const reader = small();
    usePastFolds(second, reader);
    const fullFold = async (then: Capture) =>
      (await second.readStream(threadStreamId(then.threadId), 0, then.sequence)).length;
    // The first read after the restart starts from a stored checkpoint, not from the start.
    const newest = captures.findLast((c) => c.threadId === read[0])!;
    await readsAsLive(second, newest);
    expect(reader.counts.loaded).toBeGreaterThan(0);
    expect(reader.counts.folded).toBeLessThan(await fullFold(newest));
    // Every point, newest first: each equals what was read live then.
    for (const then of captures.slice().reverse()) await readsAsLive(second, then);
    expect(reader.counts.compact).toBeGreaterThan(0);
    let wholeFolds = 0;
    for (const then of captures) wholeFolds += 3 * (await fullFold(then));
    expect(reader.counts.folded).toBeLessThan(wholeFolds);

    // Checkpoints whose compact state left out the runs the events after them touch: each read
    // that needs them folds from a whole checkpoint or the start instead, and still reads as live.
    const third = await location.open();
    cleanups.push(() => third.close());
    const starved = starving(third);
    const fallback = small();
    usePastFolds(starved, fallback);
    for (const then of captures.slice().reverse()) await readsAsLive(starved, then);
    expect(fallback.counts.loaded).toBeGreaterThan(0);
    expect(fallback.counts.refolded).toBeGreaterThan(0);
  }, 120_000);
});
