import type { RuntimeEvent } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import { DeltaCoalescer } from "./delta-coalescer.ts";

describe("DeltaCoalescer", () => {
  it("merges deltas within the window and flushes before any other event", async () => {
    const out: RuntimeEvent[] = [];
    const coalescer = new DeltaCoalescer((e) => out.push(e), 20);
    coalescer.delta({ type: "item.delta", itemRef: "a", field: "text", delta: "he" });
    coalescer.delta({
      type: "item.delta",
      itemRef: "a",
      field: "text",
      delta: "llo",
      rawEventId: "r2",
    });
    expect(out).toEqual([]);
    coalescer.event({ type: "item.started", itemRef: "b", kind: "reasoning", fields: {} });
    expect(out).toEqual([
      { type: "item.delta", itemRef: "a", field: "text", delta: "hello", rawEventId: "r2" },
      { type: "item.started", itemRef: "b", kind: "reasoning", fields: {} },
    ]);
    coalescer.delta({ type: "item.delta", itemRef: "b", field: "text", delta: "x" });
    await new Promise((r) => setTimeout(r, 40));
    expect(out.at(-1)).toEqual({ type: "item.delta", itemRef: "b", field: "text", delta: "x" });
  });
});
