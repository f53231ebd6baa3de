import { openSqliteEventStore, type ProjectionWrite, type SqliteEventStore } from "@skein/db";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { threadRows } from "./thread-pages.ts";

// The start-up sweeps (purge, pull request watch, usage-limit waits) page through the thread
// list instead of reading every row at once; a page boundary must lose and repeat nothing.

let store: SqliteEventStore;

beforeEach(() => {
  store = openSqliteEventStore({ temporary: true });
});
afterEach(async () => {
  await store.close();
});

const shell = (i: number, extra: Record<string, unknown> = {}): ProjectionWrite => ({
  op: "put",
  table: "threads",
  id: `thr_${String(i).padStart(5, "0")}`,
  threadId: `thr_${String(i).padStart(5, "0")}`,
  sortKey: 0,
  runOrdinal: null,
  status: "idle",
  // Many threads share an activity time, so pages also break inside a tie (ordered by id).
  data: {
    id: `thr_${String(i).padStart(5, "0")}`,
    projectId: i % 3 === 0 ? "prj_a" : "prj_b",
    title: `thread ${i}`,
    lastActivityAt: `2026-01-01T00:00:${String(i % 7).padStart(2, "0")}Z`,
    ...extra,
  },
});

async function collect(iterable: AsyncIterable<{ id: string }>): Promise<string[]> {
  const ids: string[] = [];
  for await (const row of iterable) ids.push(row.id);
  return ids;
}

describe("threadRows: the thread list a page at a time", () => {
  it("every thread of the asked visibilities once, across page boundaries and ties, and by project", async () => {
    const writes: ProjectionWrite[] = [];
    for (let i = 0; i < 1_234; i += 1) {
      const fate =
        i % 10 === 0
          ? { deletedAt: "2026-01-02T00:00:00Z" }
          : i % 10 === 1
            ? { archivedAt: "2026-01-02T00:00:00Z" }
            : {};
      writes.push(shell(i, fate));
    }
    await store.append("seed", 0, [{ type: "Seeded", data: {} }], { projections: writes });
    const ids = (pick: (i: number) => boolean) =>
      Array.from({ length: 1_234 }, (_, i) => i)
        .filter(pick)
        .map((i) => `thr_${String(i).padStart(5, "0")}`)
        .sort();

    const open = await collect(threadRows(store, ["active", "archived"]));
    expect(open).toHaveLength(new Set(open).size);
    expect([...open].sort()).toEqual(ids((i) => i % 10 !== 0));
    const deleted = await collect(threadRows(store, ["deleted"]));
    expect([...deleted].sort()).toEqual(ids((i) => i % 10 === 0));
    const ofA = await collect(threadRows(store, ["active", "archived", "deleted"], "prj_a"));
    expect([...ofA].sort()).toEqual(ids((i) => i % 3 === 0));
  });
});
