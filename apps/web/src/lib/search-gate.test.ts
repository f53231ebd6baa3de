import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SearchGate } from "./search-gate.ts";

/** A promise settled by hand. */
function deferred() {
  let resolve!: (value: unknown) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Whether `promise` has settled by now (after pending microtasks ran). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe("SearchGate", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("lets a page through at once when no search is in flight", async () => {
    const gate = new SearchGate(1_000);
    expect(await settled(gate.idle())).toBe(true);
  });

  it("holds a page until the search in flight answers", async () => {
    const gate = new SearchGate(1_000);
    const search = deferred();
    gate.begin(search.promise);
    const wait = gate.idle();
    expect(await settled(wait)).toBe(false);
    search.resolve({ threads: [] });
    expect(await settled(wait)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("releases the wait when the search fails", async () => {
    const gate = new SearchGate(1_000);
    const search = deferred();
    gate.begin(search.promise);
    const wait = gate.idle();
    search.reject(new Error("offline"));
    expect(await settled(wait)).toBe(true);
  });

  it("releases the wait after maxWaitMs when the search never answers", async () => {
    const gate = new SearchGate(1_000);
    gate.begin(new Promise(() => {}));
    const wait = gate.idle();
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(wait)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(wait)).toBe(true);
  });

  it("a newer search takes over the wait: its answer releases it though the older never answers", async () => {
    const gate = new SearchGate(10_000);
    gate.begin(new Promise(() => {}));
    const wait = gate.idle();
    const newer = deferred();
    gate.begin(newer.promise);
    expect(await settled(wait)).toBe(false);
    newer.resolve({ threads: [] });
    expect(await settled(wait)).toBe(true);
    // With no search in flight, the next page goes at once.
    expect(await settled(gate.idle())).toBe(true);
  });

  it("an older search answering does not release the wait for the newer one", async () => {
    const gate = new SearchGate(10_000);
    const older = deferred();
    gate.begin(older.promise);
    gate.begin(new Promise(() => {}));
    const wait = gate.idle();
    older.resolve({ threads: [] });
    expect(await settled(wait)).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await settled(wait)).toBe(true);
  });
});
