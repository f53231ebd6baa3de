import { describe, expect, it } from "vitest";
import { measureSnapshotMedian, median, openSqliteEventStore, percentile } from "../src/index.ts";
import { appendCounter, inc } from "./support/counter-model.ts";

describe("bench helpers", () => {
  it("measureSnapshotMedian runs the read the requested number of times", async () => {
    const store = openSqliteEventStore({ temporary: true });
    try {
      await appendCounter(store, "c", [inc(), inc()]);
      let calls = 0;
      const result = await measureSnapshotMedian({
        store,
        iterations: 5,
        warmup: 1,
        read: async (q) => {
          calls += 1;
          return q.list("turn_items", { threadId: "c" });
        },
      });
      expect(calls).toBe(6);
      expect(result.samplesMs).toHaveLength(5);
      expect(result.medianMs).toBe(median(result.samplesMs));
    } finally {
      await store.close();
    }
  });

  it("percentile uses nearest rank", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(median([3, 1, 2])).toBe(2);
  });
});
