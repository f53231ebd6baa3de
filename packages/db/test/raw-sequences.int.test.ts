import { expect, it } from "vitest";
import { createRotatingLog } from "../src/index.ts";
import { describeStores } from "./support/store-factory.ts";
import { tempDir } from "./support/temp-dir.ts";

describeStores("raw frames lead to the sequences they produced", (stores) => {
  it("B8: a raw frame leads to the sequences of the events that name it, and only those", async () => {
    const store = await stores.fresh();
    const log = createRotatingLog({ dir: tempDir(), maxFileBytes: 4_096, maxFiles: 2 });
    const observedAt = "2026-03-04T05:06:07.000Z";
    const started = log.record({ method: "item/started", observedAt });
    const delta = log.record({ method: "item/agentMessage/delta", observedAt });
    const unused = log.record({ method: "thread/status/changed", observedAt });
    await store.append("thr_a", 0, [{ type: "Noted", data: { n: 1 } }]);
    // One frame may lead to several events (an item started and completed from one frame).
    const first = await store.append("thr_a", "any", [
      { type: "ItemStarted", data: { rawEventId: started } },
      { type: "ItemCompleted", data: { rawEventId: started } },
    ]);
    const second = await store.append("thr_b", "any", [
      { type: "ItemDeltaAppended", data: { rawEventId: delta, delta: "x" } },
    ]);
    const found = await store.rawSequences([delta, started, unused, "raw-999999.jsonl:1"]);
    expect(found).toEqual([
      { rawEventId: started, sequence: first.firstSequence, streamId: "thr_a" },
      { rawEventId: started, sequence: first.lastSequence, streamId: "thr_a" },
      { rawEventId: delta, sequence: second.lastSequence, streamId: "thr_b" },
    ]);
    // An event without a frame (or with a non-string one) is indexed under none.
    await store.append("thr_a", "any", [{ type: "Odd", data: { rawEventId: 7 } }]);
    expect(await store.rawSequences([])).toEqual([]);
    expect((await store.readAll(0)).map((e) => e.type)).toContain("Odd");
    log.close();
  });
});
