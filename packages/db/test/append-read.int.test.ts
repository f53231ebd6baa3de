import { describe, expect, it } from "vitest";
import { openSqliteEventStore, type ProjectionWrite, StoreClosedError } from "../src/index.ts";
import { InvalidAppendError } from "../src/errors.ts";
import { appendCounter, inc, stateOf } from "./support/counter-model.ts";
import { describeStores } from "./support/store-factory.ts";
import { tempDir } from "./support/temp-dir.ts";

describeStores("append and read", (stores) => {
  it("S1: assigns strictly increasing global sequences and 1-based stream versions", async () => {
    const store = await stores.fresh();
    const a1 = await store.append("counter-a", 0, [inc(1), inc(2)]);
    const b1 = await store.append("counter-b", 0, [inc(5)]);
    const a2 = await store.append("counter-a", 2, [inc(3)]);
    expect([a1, b1, a2].map((r) => [r.firstSequence, r.lastSequence, r.streamVersion])).toEqual([
      [1, 2, 2],
      [3, 3, 1],
      [4, 4, 3],
    ]);
    const all = await store.readAll(0);
    expect(all.map((e) => [e.sequence, e.streamId, e.streamVersion])).toEqual([
      [1, "counter-a", 1],
      [2, "counter-a", 2],
      [3, "counter-b", 1],
      [4, "counter-a", 3],
    ]);
    expect(all[0]).toMatchObject({ type: "Incremented", data: { by: 1 }, commandId: null });
    expect(Number.isNaN(Date.parse(all[0]?.recordedAt ?? ""))).toBe(false);
    expect(await store.headSequence()).toBe(4);
    expect(await store.streamVersion("counter-a")).toBe(3);
    expect(await store.streamVersion("nope")).toBe(0);
  });

  it("reads pages after a cursor and one stream between two sequences", async () => {
    const store = await stores.fresh();
    for (let i = 0; i < 5; i += 1) {
      await store.append(i % 2 === 0 ? "even" : "odd", "any", [inc(i)]);
    }
    expect((await store.readAll(1, 2)).map((e) => e.sequence)).toEqual([2, 3]);
    expect((await store.readAll(5)).length).toBe(0);
    expect((await store.readStream("even")).map((e) => e.sequence)).toEqual([1, 3, 5]);
    expect((await store.readStream("even", 1)).map((e) => e.streamVersion)).toEqual([2, 3]);
    expect((await store.readStream("even", 0, 4)).map((e) => e.sequence)).toEqual([1, 3]);
    expect((await store.readStream("even", 1, 3)).map((e) => e.sequence)).toEqual([3]);
    expect(await store.readStream("even", 3, 4)).toEqual([]);
    expect(await store.readStream("missing")).toEqual([]);
  });

  it("checks expectedVersion: 0 means new, a number must match, 'any' and -1 skip the check", async () => {
    const store = await stores.fresh();
    await store.append("s", 0, [inc()]);
    await expect(store.append("s", 0, [inc()])).rejects.toMatchObject({
      name: "ConcurrencyError",
      streamId: "s",
      expected: 0,
      actual: 1,
    });
    await store.append("s", "any", [inc()]);
    await store.append("s", -1, [inc()]);
    expect(await store.streamVersion("s")).toBe(3);
  });

  it("rejects malformed input before it reaches a batch", async () => {
    const store = await stores.fresh();
    await expect(store.append("s", 0, [])).rejects.toBeInstanceOf(InvalidAppendError);
    await expect(store.append("", 0, [inc()])).rejects.toBeInstanceOf(InvalidAppendError);
    await expect(store.append("s", 1.5, [inc()])).rejects.toBeInstanceOf(InvalidAppendError);
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    await expect(store.append("s", 0, [{ type: "X", data: cyclic }])).rejects.toThrow(
      /events\[0\]\.data is not JSON-serializable/,
    );
    const badTable = { op: "delete", table: "nope", id: "x" } as unknown as ProjectionWrite;
    await expect(store.append("s", 0, [inc()], { projections: [badTable] })).rejects.toThrow(
      /unknown projection table/,
    );
    expect(await store.headSequence()).toBe(0);
  });

  it("applies projection writes in the append's transaction with updated_sequence", async () => {
    const store = await stores.fresh();
    await appendCounter(store, "counter-a", [inc(2), inc(3)]);
    await appendCounter(store, "counter-b", [inc(1)]);
    const { snapshotSequence, data } = await store.snapshot(async (q) => ({
      a: await q.get("threads", "counter-a"),
      items: await q.list("turn_items", { threadId: "counter-a" }),
      odd: await q.count("threads", { status: "odd" }),
      both: await q.count("threads", { status: ["odd", "even"] }),
      cut: await q.list("turn_items", { threadId: "counter-a", maxSortKey: 1 }),
    }));
    expect(snapshotSequence).toBe(3);
    expect(data.a).toEqual({
      id: "counter-a",
      threadId: "counter-a",
      sortKey: 2,
      runOrdinal: null,
      status: "odd",
      data: { total: 5 },
      updatedSequence: 2,
    });
    expect(data.items.map((row) => row.id)).toEqual(["counter-a#1", "counter-a#2"]);
    expect(data.odd).toBe(2);
    expect(data.both).toBe(2);
    expect(data.cut.map((row) => row.sortKey)).toEqual([1]);
    await appendCounter(store, "counter-b", [{ type: "Removed", data: {} }]);
    const after = await store.snapshot((q) => q.get("threads", "counter-b"));
    expect(after).toEqual({ snapshotSequence: 4, data: undefined });
  });

  it("filters rows by thread (including null), run ordinal and limit", async () => {
    const store = await stores.fresh();
    await appendCounter(store, "c", [inc(), inc(), inc(), inc()]);
    await store.append("global", 0, [inc()], {
      projections: [
        {
          op: "put",
          table: "projects",
          id: "p1",
          threadId: null,
          sortKey: 0,
          runOrdinal: null,
          status: null,
          data: {},
        },
      ],
    });
    const { data } = await store.snapshot(async (q) => ({
      // versions 1..4 have run ordinals 1, 2, null, 4
      upToRun2: (await q.list("turn_items", { threadId: "c", maxRunOrdinal: 2 })).map(
        (row) => row.sortKey,
      ),
      limited: (await q.list("turn_items", { threadId: "c", limit: 2 })).map((row) => row.sortKey),
      noThread: await q.count("projects", { threadId: null }),
      noStatus: await q.count("projects", { status: [] }),
    }));
    expect(data).toEqual({ upToRun2: [1, 2, 3], limited: [1, 2], noThread: 1, noStatus: 0 });
  });

  it("S2: a snapshot is one consistent read even when an append commits during it", async () => {
    const store = await stores.fresh();
    await appendCounter(store, "counter-a", [inc(1)]);
    const snapshot = await store.snapshot(async (q) => {
      const before = await q.count("turn_items");
      // Commits on the writer while this read transaction is open.
      await appendCounter(store, "counter-b", [inc(1), inc(1)]);
      expect(await store.headSequence()).toBe(3);
      return { before, after: await q.count("turn_items"), b: await q.get("threads", "counter-b") };
    });
    expect(snapshot).toEqual({ snapshotSequence: 1, data: { before: 1, after: 1, b: undefined } });
    const fresh = await store.snapshot((q) => q.count("turn_items"));
    expect(fresh).toEqual({ snapshotSequence: 3, data: 3 });
  });

  it("runs concurrent snapshots on separate read connections", async () => {
    const store = await stores.fresh({ snapshotConnections: 2 });
    await appendCounter(store, "c", [inc()]);
    const results = await Promise.all(
      Array.from({ length: 5 }, async (_, i) =>
        store.snapshot(async (q) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (i === 0) await appendCounter(store, "c", [inc()]);
          return q.count("turn_items");
        }),
      ),
    );
    for (const { snapshotSequence, data } of results) expect(data).toBe(snapshotSequence);
  });

  it("refuses use after close and reopens with the same data", async () => {
    const location = stores.location();
    const first = await stores.open(location);
    await appendCounter(first, "c", [inc(7)]);
    const pending = first.append("c", 1, [inc(1)]);
    await first.close();
    await expect(pending).resolves.toMatchObject({ lastSequence: 2 });
    await expect(first.append("c", 2, [inc()])).rejects.toBeInstanceOf(StoreClosedError);
    await expect(first.readAll(0)).rejects.toBeInstanceOf(StoreClosedError);
    const store = await stores.open(location);
    expect(stateOf(await store.readStream("c"))).toEqual({ version: 2, total: 8, removed: false });
  });
});

describe("SQLite store", () => {
  it("keeps its database in <dataDir>/skein.db", async () => {
    const dataDir = tempDir();
    const store = openSqliteEventStore({ dataDir });
    expect(store.file).toBe(`${dataDir}/skein.db`);
    await store.close();
  });
});
