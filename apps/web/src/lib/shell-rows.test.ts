import type { SkeinClient } from "@skein/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "./query/query-client.ts";
import { ROW_ROUNDS, type RowRead, ShellRowReader } from "./shell-rows.ts";

/** `thread.detail` for rows: each thread answers, is gone, or is down until told otherwise. */
function fakeApi(state: Record<string, "ok" | "gone" | "down">) {
  const reads: string[] = [];
  const client = {
    thread: {
      detail: {
        query: async ({ threadId }: { threadId: string }) => {
          reads.push(threadId);
          if (state[threadId] === "gone") {
            throw Object.assign(new Error("no such thread"), { data: { code: "NOT_FOUND" } });
          }
          if (state[threadId] === "down") throw new Error("fetch failed");
          return { thread: { id: threadId }, snapshotSequence: 1 };
        },
      },
    },
  } as unknown as SkeinClient;
  return { client, reads };
}

describe("sidebar rows read after events", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("a burst of events over two threads reads each row once", async () => {
    const { client, reads } = fakeApi({ thr_a: "ok", thr_b: "ok" });
    const landed: RowRead[][] = [];
    const rows = new ShellRowReader(createQueryClient(), client, (r) => landed.push([...r]), 50);
    for (let i = 0; i < 10; i += 1) {
      rows.touch("thr_a");
      rows.touch("thr_b");
    }
    await vi.advanceTimersByTimeAsync(50);
    expect(reads.sort()).toEqual(["thr_a", "thr_b"]);
    expect(landed).toHaveLength(1);
    expect(landed[0]?.map((r) => r.detail?.thread.id).sort()).toEqual(["thr_a", "thr_b"]);
    rows.dispose();
  });

  it("a thread that is gone says so; one that cannot be read is asked for again later", async () => {
    const state: Record<string, "ok" | "gone" | "down"> = { thr_gone: "gone", thr_down: "down" };
    const { client, reads } = fakeApi(state);
    const landed: RowRead[] = [];
    const rows = new ShellRowReader(createQueryClient(), client, (r) => landed.push(...r), 10);
    rows.touch("thr_gone");
    rows.touch("thr_down");
    await vi.advanceTimersByTimeAsync(3_000);
    // The refused read is not retried; the failing one is, by the query, before giving up.
    expect(reads.filter((id) => id === "thr_gone")).toHaveLength(1);
    expect(reads.filter((id) => id === "thr_down")).toHaveLength(3);
    expect(landed).toContainEqual({ threadId: "thr_gone", detail: null, gone: true });
    expect(landed).toContainEqual({ threadId: "thr_down", detail: null, gone: false });

    state.thr_down = "ok";
    await vi.advanceTimersByTimeAsync(10_000);
    expect(landed.at(-1)).toMatchObject({ threadId: "thr_down", gone: false });
    expect(landed.at(-1)?.detail).not.toBeNull();
    rows.dispose();
  });
  it("a row that keeps failing is asked for a bounded number of rounds; an event starts it again", async () => {
    const { client, reads } = fakeApi({ thr_down: "down" });
    const rows = new ShellRowReader(createQueryClient(), client, () => undefined, 10);
    rows.touch("thr_down");
    await vi.advanceTimersByTimeAsync(3_600_000);
    const perRound = 3; // the query's own tries
    const asked = reads.length;
    expect(asked).toBe(ROW_ROUNDS * perRound);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(reads).toHaveLength(asked);
    rows.touch("thr_down");
    await vi.advanceTimersByTimeAsync(3_000);
    expect(reads.length).toBe(asked + perRound);
    rows.dispose();
  });
});
