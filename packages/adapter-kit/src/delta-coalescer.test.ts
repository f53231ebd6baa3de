import type { RuntimeEvent } from "@skein/domain/provider";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DeltaCoalescer } from "./delta-coalescer.ts";

type Delta = Extract<RuntimeEvent, { type: "item.delta" }>;
const delta = (itemRef: string, text: string, extra: Partial<Delta> = {}): Delta => ({
  type: "item.delta",
  itemRef,
  field: "text",
  delta: text,
  ...extra,
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("DeltaCoalescer", () => {
  it("merges deltas of one item within the window and emits them when it closes", () => {
    const out: RuntimeEvent[] = [];
    const coalescer = new DeltaCoalescer((e) => out.push(e), 20);
    coalescer.delta(delta("a", "he"));
    coalescer.delta(delta("a", "llo"));
    expect(out).toEqual([]);
    vi.advanceTimersByTime(20);
    expect(out).toEqual([delta("a", "hello")]);
  });

  it("does not extend the window with later deltas", () => {
    const out: RuntimeEvent[] = [];
    const coalescer = new DeltaCoalescer((e) => out.push(e), 20);
    coalescer.delta(delta("a", "x"));
    vi.advanceTimersByTime(15);
    coalescer.delta(delta("a", "y"));
    vi.advanceTimersByTime(5);
    expect(out).toEqual([delta("a", "xy")]);
  });

  it("keeps the first raw frame's id on a merged delta (the start of its frames in the log)", () => {
    const out: RuntimeEvent[] = [];
    const coalescer = new DeltaCoalescer((e) => out.push(e), 20);
    coalescer.delta(delta("a", "he", { rawEventId: "r1" }));
    coalescer.delta(delta("a", "llo", { rawEventId: "r2" }));
    coalescer.delta(delta("b", "x"));
    coalescer.delta(delta("b", "y", { rawEventId: "r4" }));
    coalescer.flush();
    expect(out).toEqual([
      delta("a", "hello", { rawEventId: "r1" }),
      delta("b", "xy", { rawEventId: "r4" }),
    ]);
  });

  it("flushes pending text before a delta of another item or field, keeping order", () => {
    const out: RuntimeEvent[] = [];
    const coalescer = new DeltaCoalescer((e) => out.push(e), 20);
    coalescer.delta(delta("a", "1"));
    coalescer.delta(delta("b", "2"));
    coalescer.delta(delta("b", "3", { field: "output" }));
    coalescer.delta(delta("a", "4"));
    coalescer.flush();
    expect(out).toEqual([
      delta("a", "1"),
      delta("b", "2"),
      delta("b", "3", { field: "output" }),
      delta("a", "4"),
    ]);
  });

  it("emits any other event after the deltas buffered before it", () => {
    const out: RuntimeEvent[] = [];
    const coalescer = new DeltaCoalescer((e) => out.push(e), 20);
    const started: RuntimeEvent = {
      type: "item.started",
      itemRef: "b",
      kind: "reasoning",
      fields: {},
    };
    coalescer.delta(delta("a", "he"));
    coalescer.delta(delta("a", "llo"));
    coalescer.emit(started);
    expect(out).toEqual([delta("a", "hello"), started]);
    vi.advanceTimersByTime(100);
    expect(out).toHaveLength(2);
  });

  it("with a zero window emits every delta at once, unmerged", () => {
    const out: RuntimeEvent[] = [];
    const coalescer = new DeltaCoalescer((e) => out.push(e), 0);
    coalescer.delta(delta("a", "he"));
    coalescer.delta(delta("a", "llo"));
    expect(out).toEqual([delta("a", "he"), delta("a", "llo")]);
  });
});
