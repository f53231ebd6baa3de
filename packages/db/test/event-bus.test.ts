import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../src/index.ts";
import { EventBus } from "../src/bus/event-bus.ts";

function event(sequence: number, streamId = "s"): StoredEvent {
  return {
    sequence,
    streamId,
    streamVersion: sequence,
    type: "T",
    data: null,
    commandId: null,
    recordedAt: "1970-01-01T00:00:00.000Z",
  };
}

/** A fake log whose backfill reads can be held open to interleave live publishes. */
function fakeLog() {
  const log: StoredEvent[] = [];
  let gate: Promise<void> = Promise.resolve();
  const bus = new EventBus({
    backfillPageSize: 3,
    readAfter: async (after, limit) => {
      await gate;
      return log.filter((e) => e.sequence > after).slice(0, limit);
    },
  });
  const commit = (...sequences: number[]) => {
    const events = sequences.map((s) => event(s));
    log.push(...events);
    bus.publish(events);
  };
  const hold = () => {
    let open = () => {};
    gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    return open;
  };
  return { bus, commit, hold };
}

async function take(iterable: AsyncIterable<StoredEvent>, count: number): Promise<number[]> {
  const seen: number[] = [];
  if (count === 0) return seen;
  for await (const e of iterable) {
    seen.push(e.sequence);
    if (seen.length === count) break;
  }
  return seen;
}

describe("EventBus seam (S2)", () => {
  it("an event both in the backfill and in the live feed is delivered once", async () => {
    const { bus, commit, hold } = fakeLog();
    commit(1, 2, 3, 4);
    const open = hold();
    const subscription = bus.subscribe({ afterSequence: 2 });
    const seen = take(subscription, 5);
    // Committed after attach but before the backfill read completes: visible to both.
    commit(5, 6);
    open();
    commit(7);
    expect(await seen).toEqual([3, 4, 5, 6, 7]);
  });

  it("live events that arrive between backfill pages are merged at the end, in order", async () => {
    const { bus, commit } = fakeLog();
    commit(1, 2, 3, 4, 5, 6, 7);
    const subscription = bus.subscribe({ afterSequence: 0 });
    const iterator = subscription[Symbol.asyncIterator]();
    const first = await iterator.next(); // first page: 1..3
    commit(8, 9);
    const rest: number[] = [first.value?.sequence ?? -1];
    for (let i = 0; i < 8; i += 1) rest.push((await iterator.next()).value?.sequence ?? -1);
    expect(rest).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    subscription.close();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it("nothing after the cursor and nothing new: waits, then delivers the next commit", async () => {
    const { bus, commit } = fakeLog();
    commit(1);
    const subscription = bus.subscribe({ afterSequence: 1 });
    const seen = take(subscription, 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    commit(2);
    expect(await seen).toEqual([2]);
  });

  it("rejects a negative cursor", () => {
    const { bus } = fakeLog();
    expect(() => bus.subscribe({ afterSequence: -1 })).toThrow(RangeError);
  });
});
