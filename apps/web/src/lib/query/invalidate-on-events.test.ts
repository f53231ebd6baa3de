import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { invalidateOnEvents } from "./invalidate-on-events.ts";
import { newestWins } from "./newest-wins.ts";
import { LIVE_TRIES, retryDelay, retryLive } from "./query-client.ts";

type Snapshot = { snapshotSequence: number };
const KEY = ["thread", "thr_1", "graph"] as const;

/** A server whose reads answer when the test says, with the sequence it has reached. */
function server() {
  let sequence = 1;
  const pending: Array<() => void> = [];
  let reading = 0;
  let most = 0;
  const read = vi.fn(
    () =>
      new Promise<Snapshot>((resolve) => {
        reading += 1;
        most = Math.max(most, reading);
        const at = sequence;
        pending.push(() => {
          reading -= 1;
          resolve({ snapshotSequence: at });
        });
      }),
  );
  return {
    read,
    advance: () => {
      sequence += 1;
    },
    answer: () => pending.shift()?.(),
    most: () => most,
  };
}

/** The same options `useWatchedQuery` gives its query, observed as a mounted screen would. */
function watched(client: QueryClient, read: () => Promise<Snapshot>) {
  client.setQueryData<Snapshot>(KEY, { snapshotSequence: 1 });
  const observer = new QueryObserver<Snapshot>(client, {
    queryKey: KEY,
    queryFn: read,
    staleTime: Number.POSITIVE_INFINITY,
    structuralSharing: newestWins,
    retry: retryLive,
    retryDelay,
  });
  const unsubscribe = observer.subscribe(() => undefined);
  return { observer, unsubscribe };
}

describe("invalidation from the event stream", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("a seeded query does not read until an event says it moved; a burst reads it once", async () => {
    const client = new QueryClient();
    const api = server();
    const { observer, unsubscribe } = watched(client, api.read);
    const invalidator = invalidateOnEvents(client, KEY, 50);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(api.read).not.toHaveBeenCalled();

    api.advance();
    for (let i = 0; i < 20; i += 1) invalidator.request();
    await vi.advanceTimersByTimeAsync(50);
    expect(api.read).toHaveBeenCalledTimes(1);
    api.answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(observer.getCurrentResult().data).toEqual({ snapshotSequence: 2 });
    unsubscribe();
    invalidator.dispose();
  });

  it("events during a read cause one more read after it lands, never two reads at once", async () => {
    const client = new QueryClient();
    const api = server();
    const { observer, unsubscribe } = watched(client, api.read);
    const invalidator = invalidateOnEvents(client, KEY, 10);
    api.advance();
    invalidator.request();
    await vi.advanceTimersByTimeAsync(10);
    expect(api.read).toHaveBeenCalledTimes(1);

    // The read in flight left before these: it must not be the last word.
    api.advance();
    for (let i = 0; i < 5; i += 1) invalidator.request();
    await vi.advanceTimersByTimeAsync(100);
    expect(api.read).toHaveBeenCalledTimes(1);
    api.answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(api.read).toHaveBeenCalledTimes(2);
    api.answer();
    await vi.advanceTimersByTimeAsync(100);
    expect(api.read).toHaveBeenCalledTimes(2);
    expect(api.most()).toBe(1);
    expect(observer.getCurrentResult().data).toEqual({ snapshotSequence: 3 });
    unsubscribe();
    invalidator.dispose();
  });

  it("a read begun before the screen's first invalidation is followed by a fresh one", async () => {
    const client = new QueryClient();
    const api = server();
    const { unsubscribe } = watched(client, api.read);
    // Someone else's refetch is on its way when the event comes.
    void client.refetchQueries({ queryKey: KEY });
    expect(api.read).toHaveBeenCalledTimes(1);
    const invalidator = invalidateOnEvents(client, KEY, 10);
    api.advance();
    invalidator.request();
    await vi.advanceTimersByTimeAsync(10);
    api.answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(api.read).toHaveBeenCalledTimes(2);
    api.answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(client.getQueryData(KEY)).toEqual({ snapshotSequence: 2 });
    unsubscribe();
    invalidator.dispose();
  });

  it("a failed re-read is retried by the query until one lands", async () => {
    const client = new QueryClient();
    let failures = 2;
    const read = vi.fn(async () => {
      if (failures > 0) {
        failures -= 1;
        throw new Error("fetch failed");
      }
      return { snapshotSequence: 5 };
    });
    const { unsubscribe } = watched(client, read);
    const invalidator = invalidateOnEvents(client, KEY, 10);
    invalidator.request();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(read).toHaveBeenCalledTimes(3);
    expect(client.getQueryData(KEY)).toEqual({ snapshotSequence: 5 });
    unsubscribe();
    invalidator.dispose();
  });

  it("a re-read that keeps failing stops after LIVE_TRIES tries with its error; a request reads again", async () => {
    const client = new QueryClient();
    let down = true;
    const read = vi.fn(async () => {
      if (down) throw new Error("fetch failed");
      return { snapshotSequence: 7 };
    });
    const { observer, unsubscribe } = watched(client, read);
    const invalidator = invalidateOnEvents(client, KEY, 10);
    invalidator.request();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(read).toHaveBeenCalledTimes(LIVE_TRIES);
    expect(observer.getCurrentResult().error?.message).toBe("fetch failed");
    // Nothing more on its own, however long the screen stays open.
    await vi.advanceTimersByTimeAsync(600_000);
    expect(read).toHaveBeenCalledTimes(LIVE_TRIES);
    // "Try again" (or the next event) asks once more.
    down = false;
    invalidator.request();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(read).toHaveBeenCalledTimes(LIVE_TRIES + 1);
    expect(client.getQueryData(KEY)).toEqual({ snapshotSequence: 7 });
    unsubscribe();
    invalidator.dispose();
  });

  it("a read older than the snapshot the watch put in the cache never replaces it", async () => {
    const client = new QueryClient();
    const api = server();
    const { observer, unsubscribe } = watched(client, api.read);
    const invalidator = invalidateOnEvents(client, KEY, 10);
    invalidator.request();
    await vi.advanceTimersByTimeAsync(10);
    // A fresh snapshot (a reconnect) lands while the read, from sequence 1, is on its way.
    client.setQueryData<Snapshot>(
      KEY,
      (previous) => newestWins(previous, { snapshotSequence: 9 }) as Snapshot,
    );
    api.answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(observer.getCurrentResult().data).toEqual({ snapshotSequence: 9 });
    unsubscribe();
    invalidator.dispose();
  });
});
