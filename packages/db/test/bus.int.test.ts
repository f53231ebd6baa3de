import { expect, it } from "vitest";
import { type StoredEvent, SubscriberOverflow } from "../src/index.ts";
import { inc } from "./support/counter-model.ts";
import { describeStores } from "./support/store-factory.ts";

async function collect(
  iterable: AsyncIterable<StoredEvent>,
  until: (events: StoredEvent[]) => boolean,
): Promise<StoredEvent[]> {
  const seen: StoredEvent[] = [];
  for await (const event of iterable) {
    seen.push(event);
    if (until(seen)) break;
  }
  return seen;
}

describeStores("live event bus", (stores) => {
  it("S2: attaching at cursor N while appends run delivers every later event once, in order", async () => {
    const store = await stores.fresh();
    const total = 600;
    const attachAt = new Set([1, 60, 150, 300, 420, 540]);
    const subscribers: Promise<void>[] = [];
    const attach = async () => {
      // Mid-flight: other writers' appends are queued or committing around this point.
      const cursor = await store.headSequence();
      const subscription = store.subscribe({ afterSequence: cursor });
      subscribers.push(
        collect(subscription, (seen) => (seen.at(-1)?.sequence ?? 0) >= total).then((seen) => {
          expect(seen.map((e) => e.sequence)).toEqual(
            Array.from({ length: total - cursor }, (_, k) => cursor + k + 1),
          );
        }),
      );
    };
    let issued = 0;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      while (issued < total) {
        issued += 1;
        if (attachAt.has(issued)) void attach();
        await store.append(`s-${w}`, "any", [inc(issued)]);
      }
    });
    await Promise.all(writers);
    expect(subscribers).toHaveLength(attachAt.size);
    await Promise.all(subscribers);
  });

  it("backfills across pages from an old cursor and then continues live", async () => {
    const store = await stores.fresh();
    for (let i = 0; i < 1_200; i += 1) await store.append("s", "any", [inc(i)]);
    const subscription = store.subscribe({ afterSequence: 100 });
    const done = collect(subscription, (seen) => seen.length === 1_150);
    for (let i = 0; i < 50; i += 1) await store.append("t", "any", [inc(i)]);
    const seen = await done;
    expect(seen.map((e) => e.sequence)).toEqual(Array.from({ length: 1_150 }, (_, k) => k + 101));
  });

  it("filters by stream ids or prefix without losing its place", async () => {
    const store = await stores.fresh();
    await store.append("thread-1", 0, [inc()]);
    await store.append("session-1", 0, [inc()]);
    const threads = store.subscribe({ afterSequence: 0, filter: { streamPrefix: "thread-" } });
    const one = store.subscribe({ afterSequence: 0, filter: { streamIds: ["session-1"] } });
    await store.append("thread-2", 0, [inc()]);
    await store.append("session-1", 1, [inc()]);
    const fromThreads = await collect(threads, (seen) => seen.length === 2);
    const fromOne = await collect(one, (seen) => seen.length === 2);
    expect(fromThreads.map((e) => e.streamId)).toEqual(["thread-1", "thread-2"]);
    expect(fromOne.map((e) => [e.streamId, e.streamVersion])).toEqual([
      ["session-1", 1],
      ["session-1", 2],
    ]);
  });

  it("a subscriber that falls behind its buffer ends with SubscriberOverflow", async () => {
    const store = await stores.fresh();
    const slow = store.subscribe({ afterSequence: 0, bufferSize: 10 });
    const iterator = slow[Symbol.asyncIterator]();
    await store.append("s", "any", [inc()]);
    expect((await iterator.next()).value?.sequence).toBe(1);
    for (let i = 0; i < 11; i += 1) await store.append("s", "any", [inc()]);
    const failure = await iterator.next().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SubscriberOverflow);
    expect(failure).toMatchObject({ bufferSize: 10, lastDeliveredSequence: 1 });
    // Detached: it no longer costs the publisher anything.
    expect(store.subscriberCount).toBe(0);
  });

  it("close() ends iteration normally and detaches", async () => {
    const store = await stores.fresh();
    const subscription = store.subscribe({ afterSequence: 0 });
    const ended = collect(subscription, () => false);
    await store.append("s", 0, [inc()]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    subscription.close();
    expect((await ended).map((e) => e.sequence)).toEqual([1]);
    expect(store.subscriberCount).toBe(0);
  });

  it("closing the store ends its subscriptions", async () => {
    const store = await stores.fresh();
    const subscription = store.subscribe({ afterSequence: 0 });
    const ended = collect(subscription, () => false);
    await store.close();
    await expect(ended).resolves.toEqual([]);
  });
});
