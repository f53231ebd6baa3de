import { detailFromRows, incrementalRows, ThreadScenario } from "@skein/domain/testing";
import { describe, expect, it } from "vitest";
import { fromSnapshot, type LiveDetail, readLanded, readStarted, receive } from "./live-detail.ts";
import type { StoredEvent, ThreadDetail } from "./types.ts";

/**
 * A thread driven through the real domain (decide + evolve + projection), seen as the browser
 * sees it: each event as the watch sends it (global sequences with other streams' events in
 * between, so 10 apart) and the detail the API would read after any prefix of them.
 */
class Wire {
  readonly s = new ThreadScenario().create();
  readonly turn: ReturnType<ThreadScenario["start"]>;
  readonly nodeId: string;

  constructor() {
    this.s.completedRun("first");
    this.s.completedRun("second");
    const runId = this.s.queue("stream a long answer");
    this.turn = this.s.start(runId);
    this.nodeId = this.startItem();
  }

  /** A new assistant message item in the running turn; returns its node. */
  startItem(): string {
    const nodeId = this.s.ids.next("node");
    this.s.exec({
      type: "StartItem",
      data: {
        threadId: this.s.threadId,
        providerTurnId: this.turn.providerTurnId,
        nodeId,
        kind: "assistant_message",
      },
    });
    return nodeId;
  }

  get count(): number {
    return this.s.events.length;
  }

  delta(text: string, nodeId = this.nodeId): void {
    this.s.exec({
      type: "AppendItemDelta",
      data: { threadId: this.s.threadId, nodeId: nodeId as never, delta: text },
    });
  }

  complete(): void {
    this.s.exec({
      type: "CompleteItem",
      data: { threadId: this.s.threadId, nodeId: this.nodeId as never, status: "completed" },
    });
  }

  /** Events `from..to` (1-based versions), JSON-encoded as on the wire. */
  events(from: number, to = this.count): StoredEvent[] {
    return this.s.events.slice(from - 1, to).map((event, i) => ({
      sequence: (from + i) * 10,
      streamId: `thread-${this.s.threadId}`,
      streamVersion: from + i,
      type: event.type,
      data: JSON.parse(JSON.stringify(event.data)),
      commandId: null,
      recordedAt: "2026-01-01T00:00:00.000Z",
    }));
  }

  /** What `thread.detail` answers once the first `count` events are committed. */
  detail(count = this.count): ThreadDetail {
    const rows = incrementalRows(this.s.events.slice(0, count));
    const detail = detailFromRows(rows, this.s.threadId);
    const window = { before: null, after: null, firstRunOrdinal: 1, lastRunOrdinal: 3 };
    return JSON.parse(
      JSON.stringify({ ...detail, snapshotSequence: count * 10, window }),
    ) as ThreadDetail;
  }
}

const textOf = (live: LiveDetail, id: string) => {
  const item = live.shown.turnItems.find((i) => i.id === id || i.nodeId === id);
  return item && "text" in item ? item.text : undefined;
};
const streamingId = (wire: Wire) => wire.detail().turnItems.at(-1)!.id;

describe("live thread detail (S2 with deltas applied in the browser)", () => {
  it("applies deltas without a re-read, exactly as the store's projection does", () => {
    const wire = new Wire();
    const at = wire.count;
    const start = fromSnapshot(null, wire.detail(at));
    for (const piece of ["Hello", ", ", "world", "!"]) wire.delta(piece);
    const step = receive(start, wire.events(at + 1));
    expect(step.reread).toBe(false);
    const expected = wire.detail();
    expect(step.state.shown.turnItems).toEqual(expected.turnItems);
    expect(textOf(step.state, streamingId(wire))).toBe("Hello, world!");
  });

  it("a delta replaces only the streaming item; every other part keeps its identity", () => {
    const wire = new Wire();
    const at = wire.count;
    const start = fromSnapshot(null, wire.detail(at));
    wire.delta("chunk");
    const { state } = receive(start, wire.events(at + 1));
    const before = start.shown;
    const after = state.shown;
    expect(after.thread).toBe(before.thread);
    expect(after.runs).toBe(before.runs);
    expect(after.pendingRequests).toBe(before.pendingRequests);
    const changed = after.turnItems.filter((item, i) => item !== before.turnItems[i]);
    expect(changed.map((item) => item.id)).toEqual([streamingId(wire)]);
  });

  it("any other event asks for a re-read; its answer becomes the base, with nothing applied twice", () => {
    const wire = new Wire();
    const at = wire.count;
    const state = fromSnapshot(null, wire.detail(at));
    wire.delta("one ");
    wire.complete();
    const second = wire.startItem();
    wire.delta("two", second);
    // The completion and the new item need the window; the new item's delta has nowhere to go.
    const step = receive(state, wire.events(at + 1));
    expect(step.reread).toBe(true);
    expect(textOf(step.state, wire.nodeId)).toBe("one ");
    // The re-read starts; more deltas for the new item arrive while it is on its way.
    const reading = readStarted(step.state);
    const sent = wire.count;
    wire.delta(" three", second);
    wire.delta(" four", second);
    const during = receive(reading, wire.events(sent + 1)).state;
    // Its answer predates the last delta: only that one is applied again on top of it.
    const landed = readLanded(during, wire.detail(sent + 1));
    expect(landed.reread).toBe(false);
    expect(landed.state.shown.turnItems).toEqual(wire.detail().turnItems);
    expect(textOf(landed.state, second)).toBe("two three four");
    expect(landed.state.baseSequence).toBe((sent + 1) * 10);
  });

  it("a re-read that already reflects the deltas received meanwhile does not apply them again", () => {
    const wire = new Wire();
    const at = wire.count;
    let state = readStarted(fromSnapshot(null, wire.detail(at)));
    wire.delta("abc");
    wire.delta("def");
    state = receive(state, wire.events(at + 1)).state;
    expect(textOf(state, streamingId(wire))).toBe("abcdef");
    const landed = readLanded(state, wire.detail());
    expect(textOf(landed.state, streamingId(wire))).toBe("abcdef");
    // Events the base covers (a replay overlapping it) are skipped as well.
    const again = receive(landed.state, wire.events(at + 1));
    expect(textOf(again.state, streamingId(wire))).toBe("abcdef");
  });

  it("a re-read keeps the objects of everything it did not change", () => {
    const wire = new Wire();
    const at = wire.count;
    const start = readStarted(fromSnapshot(null, wire.detail(at)));
    wire.complete();
    const step = receive(start, wire.events(at + 1));
    expect(step.reread).toBe(true);
    const { state } = readLanded(step.state, wire.detail());
    const before = start.shown.turnItems;
    const changed = state.shown.turnItems.filter((item, i) => item !== before[i]);
    // The completed item (status, time) is new; every other item and the runs are kept.
    expect(changed.map((item) => item.id)).toEqual([streamingId(wire)]);
    expect(state.shown.runs).toBe(start.shown.runs);
    expect(state.shown.turnItems).toEqual(wire.detail().turnItems);
  });

  it("a gap in the stream's versions stops applying until a re-read covers it", () => {
    const wire = new Wire();
    const at = wire.count;
    const start = fromSnapshot(null, wire.detail(at));
    for (const piece of ["a", "b", "c", "d"]) wire.delta(piece);
    const first = receive(start, wire.events(at + 1, at + 1));
    // Version at+2 never arrives.
    const gap = receive(first.state, wire.events(at + 3));
    expect(gap.reread).toBe(true);
    expect(textOf(gap.state, streamingId(wire))).toBe("a");
    // A read from before the gap is not enough to trust the stream again.
    const early = readLanded(readStarted(gap.state), wire.detail(at + 2));
    expect(early.state.blockedUntil).toBe((at + 3) * 10);
    const late = readLanded(readStarted(early.state), wire.detail());
    expect(late.state.blockedUntil).toBeNull();
    expect(textOf(late.state, streamingId(wire))).toBe("abcd");
    wire.delta("e");
    const next = receive(late.state, wire.events(at + 5));
    expect(next.reread).toBe(false);
    expect(textOf(next.state, streamingId(wire))).toBe("abcde");
  });

  it("an event out of order is a gap too, never applied in the wrong place", () => {
    const wire = new Wire();
    const at = wire.count;
    const start = fromSnapshot(null, wire.detail(at));
    for (const piece of ["1", "2", "3"]) wire.delta(piece);
    const [one, two, three] = wire.events(at + 1);
    const step = receive(start, [one!, three!, two!]);
    expect(step.reread).toBe(true);
    expect(textOf(step.state, wire.nodeId)).toBe("1");
    const read = readLanded(readStarted(step.state), wire.detail());
    expect(textOf(read.state, wire.nodeId)).toBe("123");
  });

  it("a fresh snapshot always wins; an older re-read is dropped", () => {
    const wire = new Wire();
    const at = wire.count;
    wire.delta("x");
    const newer = fromSnapshot(null, wire.detail());
    const stale = readLanded(readStarted(newer), wire.detail(at));
    expect(stale.state.shown).toBe(newer.shown);
    const reset = fromSnapshot(newer, wire.detail(at));
    expect(reset.baseSequence).toBe(at * 10);
    expect(textOf(reset, streamingId(wire))).toBe("");
  });
  it("the live window read after a first window at the same sequence replaces it; the same window is dropped", () => {
    const wire = new Wire();
    const at = wire.count;
    const live = wire.detail(at);
    // The first screen's runs only: the last item, with a cursor to the runs before it.
    const first: ThreadDetail = {
      ...live,
      turnItems: live.turnItems.slice(-1),
      window: { ...live.window, before: "cursor-of-the-first-window" },
    };
    let state = readStarted(fromSnapshot(null, first));
    wire.delta("streamed meanwhile");
    state = receive(state, wire.events(at + 1)).state;
    const landed = readLanded(state, live);
    expect(landed.state.shown.window.before).toBe(live.window.before);
    expect(landed.state.shown.turnItems.map((i) => i.id)).toEqual(live.turnItems.map((i) => i.id));
    // The delta received while the read was on its way is applied on top of it.
    expect(textOf(landed.state, streamingId(wire))).toBe("streamed meanwhile");
    // A read of the window shown, at the sequence shown, brings nothing: it is dropped.
    const same = readLanded(readStarted(landed.state), live);
    expect(same.state.shown).toBe(landed.state.shown);
  });
});
