import { afterEach, describe, expect, it, vi } from "vitest";
import { ADOPT_MS, adoptWatch, preopenedSnapshot, preopenWatch } from "./preopened-watches.ts";
import type { WatchMessage } from "./types.ts";
import type { WatchObserver } from "./use-watch.ts";

type Observer = WatchObserver<string>;

/** A subscription the test drives by hand: what it was given, and whether it was closed. */
function fakeSource() {
  const source = { observer: null as Observer | null, opened: 0, closed: 0 };
  const open = (observer: Observer) => {
    source.opened += 1;
    source.observer = observer;
    return {
      unsubscribe() {
        source.closed += 1;
      },
    };
  };
  return { source, open };
}

const snapshot = (id: string, data: string) => ({
  id,
  data: { type: "snapshot", data } as WatchMessage<string>,
});

/** An observer that writes down what it receives, in order. */
function recorder() {
  const seen: string[] = [];
  const observer: Observer = {
    onData: ({ id }) => seen.push(`data ${id}`),
    onError: (error) => seen.push(`error ${String(error)}`),
    onConnectionStateChange: ({ state }) => seen.push(`state ${state}`),
  };
  return { seen, observer };
}

const settle = () => new Promise<void>((resolve) => queueMicrotask(resolve));
let key = 0;
const nextKey = () => `detail:thr_${++key}`;

afterEach(() => {
  vi.useRealTimers();
});

describe("watches opened on the click, adopted by the page", () => {
  it("what arrived before the page adopts it is replayed in order, then the rest arrives directly", async () => {
    const k = nextKey();
    const { source, open } = fakeSource();
    preopenWatch(k, open);
    source.observer?.onConnectionStateChange({ state: "pending", error: null });
    source.observer?.onData(snapshot("10", "at 10"));
    const { seen, observer } = recorder();
    const adopted = adoptWatch(k, observer);
    expect(adopted).not.toBeNull();
    // Not during subscribe: a subscription never calls back before it returns.
    expect(seen).toEqual([]);
    source.observer?.onData(snapshot("11", "at 11"));
    await settle();
    expect(seen).toEqual(["state pending", "data 10", "data 11"]);
    source.observer?.onError("gone");
    expect(seen.at(-1)).toBe("error gone");
    expect(source.opened).toBe(1);
  });

  it("a page finds nothing to adopt when no click opened its watch, and adopts a watch once", () => {
    const k = nextKey();
    expect(adoptWatch(k, recorder().observer)).toBeNull();
    const { open } = fakeSource();
    preopenWatch(k, open);
    expect(adoptWatch(k, recorder().observer)).not.toBeNull();
    expect(adoptWatch(k, recorder().observer)).toBeNull();
  });

  it("a second click before the page renders opens no second watch", () => {
    const k = nextKey();
    const { source, open } = fakeSource();
    preopenWatch(k, open);
    preopenWatch(k, open);
    expect(source.opened).toBe(1);
  });

  it("the page's unsubscribe closes the adopted watch; closed before the replay, it hears nothing", async () => {
    const k = nextKey();
    const { source, open } = fakeSource();
    preopenWatch(k, open);
    source.observer?.onData(snapshot("10", "at 10"));
    const { seen, observer } = recorder();
    adoptWatch(k, observer)?.unsubscribe();
    await settle();
    expect(seen).toEqual([]);
    expect(source.closed).toBe(1);
  });

  it("a watch no page adopts is closed after ADOPT_MS, and cannot be adopted then", () => {
    vi.useFakeTimers();
    const k = nextKey();
    const { source, open } = fakeSource();
    preopenWatch(k, open);
    vi.advanceTimersByTime(ADOPT_MS - 1);
    expect(source.closed).toBe(0);
    vi.advanceTimersByTime(1);
    expect(source.closed).toBe(1);
    expect(adoptWatch(k, recorder().observer)).toBeNull();
  });

  it("an adopted watch is not closed by the timer", () => {
    vi.useFakeTimers();
    const k = nextKey();
    const { source, open } = fakeSource();
    preopenWatch(k, open);
    adoptWatch(k, recorder().observer);
    vi.advanceTimersByTime(ADOPT_MS * 2);
    expect(source.closed).toBe(0);
  });

  it("the latest snapshot received can be drawn before the watch is adopted", () => {
    const k = nextKey();
    expect(preopenedSnapshot(k)).toBeUndefined();
    const { source, open } = fakeSource();
    preopenWatch(k, open);
    expect(preopenedSnapshot(k)).toBeUndefined();
    source.observer?.onData(snapshot("10", "at 10"));
    source.observer?.onData(snapshot("12", "at 12"));
    source.observer?.onData({
      id: "13",
      data: {
        type: "event",
        event: {
          sequence: 13,
          streamId: "thread-thr_1",
          streamVersion: 3,
          type: "ItemDeltaAppended",
          data: {},
          commandId: null,
          recordedAt: "2026-01-01T00:00:00.000Z",
        },
      },
    });
    expect(preopenedSnapshot(k)).toBe("at 12");
  });
});
