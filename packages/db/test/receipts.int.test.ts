import { expect, it } from "vitest";
import { appendCounter, inc, readTables } from "./support/counter-model.ts";
import { describeStores } from "./support/store-factory.ts";

describeStores("S4 command receipts", (stores) => {
  it("S4: the same command id twice in a row appends once and returns the same receipt", async () => {
    const store = await stores.fresh();
    const first = await store.append("c", 0, [inc(1), inc(2)], {
      commandId: "cmd_1",
      receipt: { runId: "run_1", nested: [1, 2] },
    });
    // The retry carries a stale version and other events: the receipt wins, nothing is checked.
    const retry = await store.append("c", 0, [inc(99)], { commandId: "cmd_1", receipt: "other" });
    expect(first).toEqual({
      firstSequence: 1,
      lastSequence: 2,
      streamVersion: 2,
      receipt: { runId: "run_1", nested: [1, 2] },
      duplicate: false,
    });
    expect(retry).toEqual({ ...first, duplicate: true });
    expect((await store.readAll(0)).map((e) => e.commandId)).toEqual(["cmd_1", "cmd_1"]);
    expect(await store.findReceipt("cmd_1")).toEqual({
      streamId: "c",
      firstSequence: 1,
      lastSequence: 2,
      streamVersion: 2,
      receipt: { runId: "run_1", nested: [1, 2] },
      procedure: "",
      payloadHash: "",
    });
    expect(await store.findReceipt("cmd_unknown")).toBeNull();
  });

  it("S4: duplicates inside one group-commit batch append once", async () => {
    const store = await stores.fresh();
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        store.append("c", "any", [inc(1)], { commandId: "cmd_same", receipt: { ok: true } }),
      ),
    );
    expect(results.map((r) => r.duplicate)).toEqual([false, true, true, true]);
    for (const result of results) {
      expect(result).toMatchObject({ firstSequence: 1, lastSequence: 1, receipt: { ok: true } });
    }
    expect(await store.headSequence()).toBe(1);
  });

  it("S4: a duplicate applies no projection writes, also after a reopen", async () => {
    const location = stores.location();
    const first = await stores.open(location);
    await appendCounter(first, "c", [inc(3)], { commandId: "cmd_a" });
    const tables = await readTables(first);
    await first.close();
    const store = await stores.open(location);
    const again = await appendCounter(store, "c", [inc(3)], { commandId: "cmd_a" });
    expect(again.duplicate).toBe(true);
    expect(await readTables(store)).toEqual(tables);
  });

  it("a receipt defaults to null and a failed append stores none", async () => {
    const store = await stores.fresh();
    await store.append("c", 0, [inc()]);
    await expect(store.append("c", 0, [inc()], { commandId: "cmd_late" })).rejects.toMatchObject({
      name: "ConcurrencyError",
    });
    // Not recorded as applied: the corrected retry goes through.
    const retry = await store.append("c", 1, [inc()], { commandId: "cmd_late" });
    expect(retry).toMatchObject({ duplicate: false, receipt: null, streamVersion: 2 });
  });

  it("S4: two instances on one database given the same command ids append each once", async () => {
    const location = stores.location();
    const a = await stores.open(location);
    const b = await stores.open(location);
    const commands = Array.from({ length: 20 }, (_, i) => `cmd_${i}`);
    const results = await Promise.all(
      commands.flatMap((commandId, i) =>
        [a, b].map((store) =>
          store.append(`c-${i % 3}`, "any", [inc(i)], { commandId, receipt: { i } }),
        ),
      ),
    );
    for (let i = 0; i < commands.length; i += 1) {
      const pair = results.slice(2 * i, 2 * i + 2);
      expect(pair.map((r) => r.duplicate).sort()).toEqual([false, true]);
      expect(pair[0]).toMatchObject({ firstSequence: pair[1]?.firstSequence, receipt: { i } });
    }
    const log = await a.readAll(0);
    expect(log.map((e) => e.commandId).sort()).toEqual([...commands].sort());
    expect(await b.findReceipt("cmd_7")).toMatchObject({ receipt: { i: 7 } });
  });
});
