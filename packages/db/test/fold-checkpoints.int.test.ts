import { describe, expect, it } from "vitest";
import { checkpointsToThin } from "../src/fold-checkpoint-thinning.ts";
import { describeStores } from "./support/store-factory.ts";

const at = (version: number, format = "f1") => ({
  streamId: "thread-a",
  version,
  sequence: version * 10,
  format,
  body: `body ${version} ${format}`,
});

describe("checkpointsToThin", () => {
  it("keeps the first and the newest and drops the most crowded ones", () => {
    expect(checkpointsToThin([1, 2, 3], 3)).toEqual([]);
    expect(checkpointsToThin([1, 2, 3, 10], 3)).toEqual([2]);
    expect(checkpointsToThin([1, 5, 6, 7, 20], 3)).toEqual([6, 7]);
    // Never fewer than two: the first and the newest.
    expect(checkpointsToThin([1, 2, 3], 1)).toEqual([2]);
  });
});

describeStores("B8 fold checkpoints", (stores) => {
  it("B8: reads the nearest checkpoint at or below a sequence, above what the caller holds", async () => {
    const store = await stores.fresh();
    expect(await store.readFoldCheckpoint("thread-a", "f1", 1_000)).toBeNull();
    for (const version of [1, 3, 5]) await store.saveFoldCheckpoint(at(version), 8);
    expect((await store.readFoldCheckpoint("thread-a", "f1", 49))?.version).toBe(3);
    expect(await store.readFoldCheckpoint("thread-a", "f1", 50)).toEqual(at(5));
    expect(await store.readFoldCheckpoint("thread-a", "f1", 9)).toBeNull();
    // The caller already holds version 3: only a nearer one is worth reading.
    expect(await store.readFoldCheckpoint("thread-a", "f1", 49, 3)).toBeNull();
    expect((await store.readFoldCheckpoint("thread-a", "f1", 59, 3))?.version).toBe(5);
    expect(await store.readFoldCheckpoint("thread-b", "f1", 1_000)).toBeNull();
    // One already stored at a position stays (the log below it never changes).
    await store.saveFoldCheckpoint({ ...at(5), body: "other" }, 8);
    expect((await store.readFoldCheckpoint("thread-a", "f1", 50))?.body).toBe("body 5 f1");
  });

  it("B8: keeps at most `keep` per stream, spread over the history, and drops other formats", async () => {
    const store = await stores.fresh();
    for (let version = 1; version <= 12; version += 1)
      await store.saveFoldCheckpoint(at(version), 4);
    await store.saveFoldCheckpoint({ ...at(1), streamId: "thread-b" }, 4);
    const kept = await store.foldCheckpointPositions("thread-a", "f1");
    expect(kept.length).toBe(4);
    expect(kept[0]).toEqual({ version: 1, sequence: 10 });
    expect(kept.at(-1)).toEqual({ version: 12, sequence: 120 });
    // Written by other (older or newer) code: never read by this format, and a write of one
    // format drops the stream's others (two versions of the code take turns, never mix).
    await store.saveFoldCheckpoint(at(13, "f0"), 4);
    expect(await store.readFoldCheckpoint("thread-a", "f1", 130)).toBeNull();
    expect(await store.readFoldCheckpoint("thread-a", "f0", 130)).toMatchObject({ version: 13 });
    expect(await store.foldCheckpointPositions("thread-a", "f1")).toEqual([]);
    await store.saveFoldCheckpoint(at(14), 4);
    expect(await store.foldCheckpointPositions("thread-a", "f0")).toEqual([]);
    expect(await store.foldCheckpointPositions("thread-b", "f1")).toEqual([
      { version: 1, sequence: 10 },
    ]);
    await expect(store.saveFoldCheckpoint(at(15), 1)).rejects.toThrow(/keep/);
    await expect(store.saveFoldCheckpoint(at(0), 4)).rejects.toThrow(/bad position/);
  });

  it("B8: a checkpoint outlives the store instance that wrote it", async () => {
    const location = stores.location();
    const first = await stores.open(location);
    await first.saveFoldCheckpoint(at(2), 4);
    await first.close();
    const second = await stores.open(location);
    expect(await second.readFoldCheckpoint("thread-a", "f1", 20)).toEqual(at(2));
  });
});
