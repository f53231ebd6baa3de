import { expect, it } from "vitest";
import { ConcurrencyError } from "../src/index.ts";
import { inc } from "./support/counter-model.ts";
import { describeStores } from "./support/store-factory.ts";

describeStores("concurrent writers", (stores) => {
  it("8 writers on one stream: one winner per version, typed errors for the rest", async () => {
    const store = await stores.fresh();
    const writers = 8;
    const rounds = 25;
    const wins: { commandId: string; version: number; sequence: number }[] = [];
    const conflicts: ConcurrencyError[] = [];

    const writer = async (id: number) => {
      for (let round = 0; round < rounds; round += 1) {
        const version = await store.streamVersion("hot");
        const commandId = `w${id}-r${round}`;
        try {
          const result = await store.append("hot", version, [inc(id)], { commandId });
          wins.push({ commandId, version: result.streamVersion, sequence: result.lastSequence });
        } catch (error) {
          if (!(error instanceof ConcurrencyError)) throw error;
          expect(error.streamId).toBe("hot");
          expect(error.actual).toBeGreaterThan(error.expected);
          conflicts.push(error);
        }
      }
    };
    await Promise.all(Array.from({ length: writers }, (_, id) => writer(id)));

    const log = await store.readStream("hot");
    // Every version was won exactly once, and every win is in the log exactly once.
    expect(wins.map((w) => w.version).sort((a, b) => a - b)).toEqual(
      log.map((e) => e.streamVersion),
    );
    expect(new Set(wins.map((w) => w.sequence)).size).toBe(wins.length);
    expect(log.map((e) => [e.sequence, e.commandId])).toEqual(
      [...wins].sort((a, b) => a.sequence - b.sequence).map((w) => [w.sequence, w.commandId]),
    );
    expect(wins.length + conflicts.length).toBe(writers * rounds);
    // All writers read the same version at the start of each round, so most rounds conflict.
    expect(conflicts.length).toBeGreaterThan(0);
    expect(log.map((e) => e.sequence)).toEqual(log.map((_, i) => i + 1));
  });

  it("group commit: appends issued together share a transaction but are judged one by one", async () => {
    let tick = 0;
    const now = () => {
      tick += 1;
      return new Date(tick);
    };
    // A distinct timestamp per transaction, so recordedAt tells commits apart.
    const store = await stores.fresh({ now });
    const results = await Promise.allSettled([
      store.append("a", 0, [inc()]),
      store.append("a", 0, [inc()]), // stale after the first, same batch
      store.append("a", 1, [inc()]),
      store.append("b", 0, [inc(), inc()]),
      store.append("b", 5, [inc()]),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
      "rejected",
    ]);
    const recordedAt = new Set((await store.readAll(0)).map((e) => e.recordedAt));
    expect(recordedAt.size).toBe(1);
    expect((await store.readAll(0)).map((e) => [e.streamId, e.streamVersion])).toEqual([
      ["a", 1],
      ["a", 2],
      ["b", 1],
      ["b", 2],
    ]);
  });
});
