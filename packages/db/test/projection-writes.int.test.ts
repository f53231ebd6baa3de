import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteEventStore, type ProjectionWrite, type SqliteEventStore } from "../src/index.ts";
import { tempDir } from "./support/temp-dir.ts";

/*
 * Issue 28: a projection row write touches only the indexes whose columns it changes, and a
 * thread row's listing columns only when what they derive from moved. Pages are counted in the
 * WAL (each is written, checksummed and later checkpointed), on a real file; the rows must read
 * back exactly as the all-columns upsert left them.
 */

let store: SqliteEventStore;
let peek: Database.Database;
let version = 0;

beforeEach(() => {
  store = openSqliteEventStore({ dataDir: tempDir() });
  peek = new Database(store.file);
  version = 0;
});

afterEach(async () => {
  peek.close();
  await store.close();
});

/** Appends one small event carrying `writes`; returns the WAL pages its commit wrote. */
async function pagesOf(writes: ProjectionWrite[]): Promise<number> {
  peek.pragma("wal_checkpoint(TRUNCATE)");
  await store.append("s", version, [{ type: "T", data: { n: version } }], {
    projections: writes,
  });
  version += 1;
  const [state] = peek.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
  return state?.log ?? Number.NaN;
}

const run = (status: string, data: unknown, sortKey = 1, threadId = "thr_1"): ProjectionWrite => ({
  op: "put",
  table: "runs",
  id: "run_1",
  threadId,
  sortKey,
  runOrdinal: 1,
  status,
  data,
});

function stored(table: string, id: string) {
  return peek.prepare(`SELECT * FROM "${table}" WHERE id = ?`).get(id);
}

describe("projection row writes", () => {
  it("an update that changes only data writes the row's page and no index page", async () => {
    await pagesOf([run("queued", { a: 1 })]);
    const bare = await pagesOf([]);
    const dataOnly = await pagesOf([run("queued", { a: 2 })]);
    const statusMoved = await pagesOf([run("running", { a: 3 })]);
    const keysMoved = await pagesOf([run("running", { a: 4 }, 2)]);
    expect(dataOnly).toBe(bare + 1);
    // The status index, then also the (thread_id, sort_key) one.
    expect(statusMoved).toBe(bare + 2);
    expect(keysMoved).toBe(bare + 3);
    expect(stored("runs", "run_1")).toEqual({
      id: "run_1",
      thread_id: "thr_1",
      sort_key: 2,
      run_ordinal: 1,
      status: "running",
      data: JSON.stringify({ a: 4 }),
      updated_sequence: 5,
    });
  });

  it("indexes follow every kind of change: reads by status and by thread see the new row", async () => {
    await pagesOf([run("queued", { a: 1 })]);
    await pagesOf([run("running", { a: 2 })]);
    await pagesOf([run("running", { a: 3 }, 7, "thr_2")]);
    await pagesOf([run("completed", { a: 4 }, 7, "thr_2")]);
    const { data } = await store.snapshot(async (q) => ({
      running: await q.list("runs", { status: "running" }),
      completed: await q.list("runs", { status: "completed" }),
      oldThread: await q.list("runs", { threadId: "thr_1" }),
      newThread: await q.list("runs", { threadId: "thr_2", maxSortKey: 7 }),
    }));
    expect(data.running).toEqual([]);
    expect(data.oldThread).toEqual([]);
    expect(data.completed.map((row) => row.data)).toEqual([{ a: 4 }]);
    expect(data.newThread.map((row) => [row.sortKey, row.updatedSequence])).toEqual([[7, 4]]);
    expect(peek.pragma("integrity_check")).toEqual([{ integrity_check: "ok" }]);
  });

  it("a delete then a put of the same row in later appends inserts it again", async () => {
    await pagesOf([run("queued", { a: 1 })]);
    await pagesOf([{ op: "delete", table: "runs", id: "run_1" }]);
    expect(stored("runs", "run_1")).toBeUndefined();
    await pagesOf([run("queued", { a: 2 })]);
    expect(stored("runs", "run_1")).toMatchObject({ status: "queued", data: '{"a":2}' });
  });
});

describe("thread listing columns (migrations 0012, 0013)", () => {
  const shell = (fields: Record<string, unknown>): ProjectionWrite => ({
    op: "put",
    table: "threads",
    id: "thr_1",
    threadId: "thr_1",
    sortKey: 0,
    runOrdinal: null,
    status: "idle",
    data: { projectId: "prj_1", title: "First", lastActivityAt: "2026-01-01T00:00:00Z", ...fields },
  });
  const listing = () =>
    peek
      .prepare(`SELECT project_id, title, active_at, visibility FROM threads WHERE id = 'thr_1'`)
      .get();
  const titleHits = (word: string) =>
    peek
      .prepare(`SELECT count(*) AS n FROM threads_title_search WHERE title MATCH ?`)
      .pluck()
      .get(`"${word}"`);

  it("issue 26: a thread row's port column follows the port in its data (set, moved, cleared)", async () => {
    const port = () => peek.prepare(`SELECT port FROM threads WHERE id = 'thr_1'`).pluck().get();
    await pagesOf([shell({ port: 3100 })]);
    expect(port()).toBe(3100);
    await pagesOf([shell({ port: 3107, lastActivityAt: "2026-01-02T00:00:00Z" })]);
    expect(port()).toBe(3107);
    await pagesOf([shell({ port: null, lastActivityAt: "2026-01-02T00:00:00Z" })]);
    expect(port()).toBe(null);
  });

  it("T9: a thread row's subagent_of column follows its lineage (a sub-agent's child; promoted, a fork: none)", async () => {
    const of = () =>
      peek.prepare(`SELECT subagent_of FROM threads WHERE id = 'thr_1'`).pluck().get();
    const lineage = (parentThreadId: string | null, relationshipToParent: string | null) =>
      shell({ lineage: { parentThreadId, relationshipToParent, rootThreadId: "thr_0" } });
    await pagesOf([lineage("thr_0", "subagent")]);
    expect(of()).toBe("thr_0");
    await pagesOf([lineage(null, null)]);
    expect(of()).toBe(null);
    await pagesOf([lineage("thr_0", "fork")]);
    expect(of()).toBe(null);
  });

  it("a new thread row is written with its listing columns at once: each index once, title searchable", async () => {
    const bare = await pagesOf([]);
    const inserted = await pagesOf([shell({})]);
    expect(listing()).toEqual({
      project_id: "prj_1",
      title: "First",
      active_at: "2026-01-01T00:00:00Z",
      visibility: "active",
    });
    expect(titleHits("First")).toBe(1);
    // The row's page, its primary key, (thread_id, sort_key), status, the three listing
    // indexes, (visibility, port) and subagent_of (9), and the title search's content, size and
    // term pages (3).
    expect(inserted).toBe(bare + 12);
    const writer = new Database(store.file, { readonly: true });
    try {
      const triggers = writer
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'threads'`)
        .pluck()
        .all();
      expect(triggers.sort()).toEqual([
        "threads_title_search_delete",
        "threads_title_search_insert",
        "threads_title_search_update",
      ]);
    } finally {
      writer.close();
    }
  });

  it("listing columns take the data's members as json_extract would: absent or null is NULL", async () => {
    await pagesOf([
      {
        ...shell({}),
        data: { title: "No project", archivedAt: null, deletedAt: null },
      } as ProjectionWrite,
    ]);
    expect(listing()).toEqual({
      project_id: null,
      title: "No project",
      active_at: null,
      visibility: "active",
    });
    await pagesOf([shell({ archivedAt: "2026-01-03T00:00:00Z", deletedAt: null })]);
    expect(listing()).toMatchObject({ project_id: "prj_1", visibility: "archived" });
  });

  it("moving only the activity time rewrites the activity indexes, not the title's", async () => {
    await pagesOf([shell({})]);
    const bare = await pagesOf([]);
    const same = await pagesOf([shell({ note: 1 })]);
    const active = await pagesOf([shell({ lastActivityAt: "2026-01-02T00:00:00Z" })]);
    expect(same).toBe(bare + 1);
    // (visibility, active_at, …) and (project_id, visibility, active_at, …); not (project_id, title).
    expect(active).toBe(bare + 3);
    expect(listing()).toEqual({
      project_id: "prj_1",
      title: "First",
      active_at: "2026-01-02T00:00:00Z",
      visibility: "active",
    });
  });

  it("title, project and visibility changes are derived as before, title search included", async () => {
    await pagesOf([shell({})]);
    await pagesOf([shell({ title: "Renamed" })]);
    expect(listing()).toMatchObject({ title: "Renamed" });
    expect([titleHits("First"), titleHits("Renamed")]).toEqual([0, 1]);
    await pagesOf([shell({ title: "Renamed", projectId: "prj_2" })]);
    expect(listing()).toMatchObject({ project_id: "prj_2" });
    await pagesOf([shell({ title: "Renamed", archivedAt: "2026-01-03T00:00:00Z" })]);
    expect(listing()).toMatchObject({ visibility: "archived" });
    await pagesOf([shell({ title: "Renamed", deletedAt: "2026-01-04T00:00:00Z" })]);
    expect(listing()).toMatchObject({ visibility: "deleted", active_at: "2026-01-01T00:00:00Z" });
    await pagesOf([shell({ title: null })]);
    expect(listing()).toEqual({
      project_id: "prj_1",
      title: null,
      active_at: "2026-01-01T00:00:00Z",
      visibility: "active",
    });
    expect(titleHits("Renamed")).toBe(0);
  });
});
