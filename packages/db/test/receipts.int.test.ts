import { afterEach, describe, expect, it } from "vitest";
import { type EventStore, openSqliteEventStore } from "../src/index.ts";
import { appendCounter, inc, readTables } from "./support/counter-model.ts";
import { tempDir } from "./support/temp-dir.ts";

let store: EventStore;
afterEach(async () => {
  await store.close();
});

describe("S4 command receipts", () => {
  it("S4: the same command id twice in a row appends once and returns the same receipt", async () => {
    store = openSqliteEventStore({ temporary: true });
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
    });
    expect(await store.findReceipt("cmd_unknown")).toBeNull();
  });

  it("S4: duplicates inside one group-commit batch append once", async () => {
    store = openSqliteEventStore({ temporary: true });
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
    const dataDir = tempDir();
    const first = openSqliteEventStore({ dataDir });
    await appendCounter(first, "c", [inc(3)], { commandId: "cmd_a" });
    const tables = await readTables(first);
    await first.close();
    store = openSqliteEventStore({ dataDir });
    const again = await appendCounter(store, "c", [inc(3)], { commandId: "cmd_a" });
    expect(again.duplicate).toBe(true);
    expect(await readTables(store)).toEqual(tables);
  });

  it("a receipt defaults to null and a failed append stores none", async () => {
    store = openSqliteEventStore({ temporary: true });
    await store.append("c", 0, [inc()]);
    await expect(store.append("c", 0, [inc()], { commandId: "cmd_late" })).rejects.toMatchObject({
      name: "ConcurrencyError",
    });
    // Not recorded as applied: the corrected retry goes through.
    const retry = await store.append("c", 1, [inc()], { commandId: "cmd_late" });
    expect(retry).toMatchObject({ duplicate: false, receipt: null, streamVersion: 2 });
  });
});
