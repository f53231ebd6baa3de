import { describe, expect, it } from "vitest";
import { measureSnapshotMedian } from "../src/bench/snapshot-bench.ts";
import { median, percentile } from "../src/bench/measure.ts";
import { appendCounter, inc } from "./support/counter-model.ts";
import { describeStores } from "./support/store-factory.ts";

describeStores("snapshot bench helper", (stores) => {
  it("measureSnapshotMedian runs the read the requested number of times", async () => {
    const store = await stores.fresh();
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
});

describe("bench helpers", () => {
  it("percentile uses nearest rank", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(median([3, 1, 2])).toBe(2);
  });
});
