import type { TurnItem } from "@skein/domain";
import { beforeEach, expect, it } from "vitest";
import type { EventStore, ProjectionQuery } from "../src/index.ts";
import { metaSource } from "./support/execute-command.ts";
import { readThreadDetail } from "./support/read-models.ts";
import { describeStores } from "./support/store-factory.ts";
import { ThreadDriver } from "./support/thread-driver.ts";

let store: EventStore;

/** A source with two checkpointed runs, a fork at run 1 with one run of its own, then a third
 * source run after the fork (which the fork must not see). */
async function sourceAndFork() {
  const meta = metaSource("p7");
  const src = new ThreadDriver(store, "src", meta).create("Source");
  const r1 = src.completedRun("one", { items: 2, checkpoint: true });
  src.completedRun("two", { items: 3, checkpoint: true });
  await src.flush();
  const fork = new ThreadDriver(store, "fork", meta).fork(src, { type: "run", runId: r1 });
  fork.completedRun("fork one", { provider: "claude", items: 2 });
  src.completedRun("three after fork", { items: 2 });
  await Promise.all([src.flush(), fork.flush()]);
  return { src, fork, meta };
}

async function ownRows(query: ProjectionQuery, threadId: string): Promise<TurnItem[]> {
  return (await query.list("turn_items", { threadId })).map((row) => row.data as TurnItem);
}

const shape = (item: TurnItem) => [item.threadId, item.type, item.runOrdinal];

describeStores("visibleTurnItems read through the store (P7)", (stores) => {
  beforeEach(async () => {
    store = await stores.fresh();
  });

  it("P7: a fork shows the source's items up to the fork point, its marker, then its own items — no rows copied", async () => {
    const { src, fork } = await sourceAndFork();
    const { data } = await store.snapshot(async (q) => ({
      detail: await readThreadDetail(q, fork.threadId),
      source: await ownRows(q, src.threadId),
      forkRows: await ownRows(q, fork.threadId),
      total: await q.count("turn_items"),
    }));
    const visible = data.detail?.visibleTurnItems ?? [];
    const s = src.threadId;
    const f = fork.threadId;
    expect(visible.map(shape)).toEqual([
      [s, "user_message", 1],
      [s, "assistant_message", 1],
      [s, "command_execution", 1],
      [s, "checkpoint", 1],
      [f, "fork", null],
      [f, "user_message", 1],
      [f, "assistant_message", 1],
      [f, "command_execution", 1],
    ]);
    // The inherited entries are the source's own rows, read by reference…
    const inherited = visible.filter((item) => item.threadId === s);
    const run1 = data.source.filter((item) => item.runOrdinal === 1);
    expect(inherited).toEqual(run1);
    // …and storage holds each item once: the fork's table rows are only its marker and own items.
    expect(data.forkRows.map((item) => item.id)).toEqual(
      visible.filter((item) => item.threadId === f).map((item) => item.id),
    );
    expect(data.source).toHaveLength(src.state.turnItems.size);
    expect(data.forkRows).toHaveLength(fork.state.turnItems.size);
    expect(data.total).toBe(data.source.length + data.forkRows.length);
    expect(visible.length).toBeGreaterThan(data.forkRows.length);
  });

  it("P7: a fork of a fork inherits through both, still one row per item", async () => {
    const { src, fork, meta } = await sourceAndFork();
    const f2 = new ThreadDriver(store, "f2", meta).fork(fork);
    await f2.flush();
    const { data } = await store.snapshot(async (q) => ({
      detail: await readThreadDetail(q, f2.threadId),
      f2Rows: await ownRows(q, f2.threadId),
      total: await q.count("turn_items"),
      bySource: await q.count("turn_items", { threadId: src.threadId }),
      byFork: await q.count("turn_items", { threadId: fork.threadId }),
    }));
    const visible = data.detail?.visibleTurnItems ?? [];
    expect(visible.map((item) => item.threadId)).toEqual([
      ...Array(4).fill(src.threadId),
      ...Array(4).fill(fork.threadId),
      f2.threadId,
    ]);
    expect(visible.filter((item) => item.type === "fork").map((item) => item.threadId)).toEqual([
      fork.threadId,
      f2.threadId,
    ]);
    expect(data.f2Rows.map((item) => item.type)).toEqual(["fork"]);
    expect(data.total).toBe(data.bySource + data.byFork + 1);
  });
});
