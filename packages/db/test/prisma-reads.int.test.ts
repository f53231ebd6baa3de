import { describe, expect, it } from "vitest";
import type {
  MessageThreadPageFilter,
  ProjectionFilter,
  ProjectionQuery,
  ThreadPageFilter,
} from "../src/event-store.ts";
import { StoreClosedError } from "../src/index.ts";
import type { ProjectionTable, ProjectionWrite } from "../src/projection-types.ts";
import { describePostgres, describeStores, type TestStore } from "./support/store-factory.ts";

/** Rows that tell the filters apart: null thread ids and run ordinals, statuses, equal sort keys. */
function itemRows(): ProjectionWrite[] {
  return Array.from({ length: 24 }, (_, n) => ({
    op: "put" as const,
    table: "turn_items" as const,
    id: `item-${String(n % 7).padStart(2, "0")}-${n}`,
    threadId: n % 5 === 0 ? null : `thread-${n % 2}`,
    sortKey: Math.floor(n / 3),
    runOrdinal: n % 4 === 0 ? null : n % 6,
    status: ["queued", "done", null][n % 3] ?? null,
    data: { n, nested: { text: `item ${n}` } },
  }));
}

/** Thread rows whose JSON fills the listing columns (migration 0005's trigger). */
function threadRows(): ProjectionWrite[] {
  const titles = ["ALPHA release", "alpha notes", "note_1 100%", "note%1", "Beta", "ümlaut alpha"];
  return Array.from({ length: 18 }, (_, n) => ({
    op: "put" as const,
    table: "threads" as const,
    id: `t${String(n).padStart(2, "0")}`,
    threadId: `t${String(n).padStart(2, "0")}`,
    sortKey: 0,
    runOrdinal: null,
    status: n % 3 === 0 ? "running" : "idle",
    data: {
      id: `t${n}`,
      projectId: n % 2 === 0 ? "p-even" : "p-odd",
      title: `${titles[n % titles.length]} ${n}`,
      // Pairs share an instant, so the id breaks the tie.
      lastActivityAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(n / 2))).toISOString(),
      archivedAt: n === 5 ? "2026-02-01T00:00:00.000Z" : null,
      deletedAt: n === 7 ? "2026-02-01T00:00:00.000Z" : null,
    },
  }));
}

/** Issue 29: messages of the threads above; a streaming one is not searched yet. */
function messageRows(): ProjectionWrite[] {
  return Array.from({ length: 12 }, (_, n) => ({
    op: "put" as const,
    table: "messages" as const,
    id: `m${n}`,
    threadId: `t${String(n).padStart(2, "0")}`,
    sortKey: 1,
    runOrdinal: 1,
    status: n === 11 ? "streaming" : "complete",
    data: { text: n % 2 === 0 || n === 11 ? `teach the Quokka ${n}% more` : "nothing here" },
  }));
}

const SEARCHES: MessageThreadPageFilter[] = [
  { visibility: "active", query: "quokka", limit: 100 },
  {
    visibility: "active",
    query: "quokka",
    limit: 2,
    after: { activeAt: "2026-01-01T00:00:05.000Z", id: "t10" },
  },
  { visibility: "active", query: "Quokka 4%", limit: 100, projectId: "p-even" },
];

const FILTERS: ProjectionFilter[] = [
  {},
  { threadId: null },
  { threadId: "thread-1" },
  { status: "done" },
  { status: ["queued", "done"] },
  { status: [] },
  { maxSortKey: 4, minSortKey: 2 },
  { maxRunOrdinal: 3 },
  { minRunOrdinal: 2, threadId: "thread-0" },
  { runOrdinal: 5 },
  { descending: true, limit: 5 },
  { threadId: "thread-1", descending: true },
];

const PAGES: ThreadPageFilter[] = [
  { visibility: "active", limit: 100 },
  { visibility: "active", limit: 4, after: { activeAt: "2026-01-01T00:00:05.000Z", id: "t11" } },
  { visibility: "archived", limit: 10 },
  { visibility: "active", projectId: "p-even", limit: 10 },
  { visibility: "active", query: "alpha", limit: 50 },
  // LIKE's own wildcards match literally.
  { visibility: "active", query: "note_1", limit: 50 },
  { visibility: "active", query: "1 100%", limit: 50 },
  { visibility: "active", query: "e%1", limit: 50 },
];

/** Every read shape the read models use, answered by one ProjectionQuery. */
async function readAll(q: ProjectionQuery) {
  return {
    gets: await Promise.all(["item-03-3", "missing"].map((id) => q.get("turn_items", id))),
    lists: await Promise.all(FILTERS.map((filter) => q.list("turn_items", filter))),
    counts: await Promise.all(
      FILTERS.map(({ limit: _l, ...filter }) => q.count("turn_items", filter)),
    ),
    pages: await Promise.all(PAGES.map((filter) => q.threadPage(filter))),
    searches: await Promise.all(SEARCHES.map((filter) => q.messageThreadPage(filter))),
    projects: await q.list("projects"),
  };
}

async function seed(store: TestStore): Promise<void> {
  await store.append("seed", 0, [{ type: "Seeded", data: {} }], {
    projections: [...itemRows(), ...threadRows(), ...messageRows()],
  });
  await store.append("project", 0, [{ type: "ProjectCreated", data: {} }], {
    projections: [
      {
        op: "put",
        table: "projects",
        id: "p1",
        threadId: null,
        sortKey: 1,
        runOrdinal: null,
        status: null,
        data: { name: "one" },
      },
    ],
  });
}

describeStores("reads through Prisma", (stores) => {
  it("answers every read shape with the driver's rows, at the same snapshot sequence", async () => {
    const store = await stores.fresh();
    await seed(store);
    const driver = await store.snapshot(readAll);
    const prisma = await store.snapshot(readAll, { through: "prisma" });
    const ids = (x: typeof driver) =>
      x.data.pages.map((rows) => rows.map((row) => row.id).join(","));
    expect(ids(prisma)).toEqual(ids(driver));
    expect(prisma).toEqual(driver);
    expect(prisma.snapshotSequence).toBe(await store.headSequence());
    // The fixtures reach every branch: no read came back empty by accident.
    expect(driver.data.lists.filter((rows) => rows.length === 0)).toHaveLength(1);
    expect(driver.data.pages.every((rows) => rows.length > 0)).toBe(true);
    expect(driver.data.searches.map((rows) => rows.map((hit) => hit.row.id))).toEqual([
      ["t10", "t08", "t06", "t04", "t02", "t00"],
      ["t08", "t06"],
      ["t04"],
    ]);
  });

  it("sends the read through the generated client, on the store's own database", async () => {
    const sql: string[] = [];
    const store = await stores.fresh({ prismaQueryLog: (query) => sql.push(query) });
    await seed(store);
    await store.snapshot((q) => q.list("turn_items"));
    expect(sql).toEqual([]);
    const { data } = await store.snapshot((q) => q.list("projects"), { through: "prisma" });
    expect(data.map((row) => row.data)).toEqual([{ name: "one" }]);
    expect(sql.some((query) => /SELECT .*"projects"/.test(query.replaceAll("`", '"')))).toBe(true);
  });

  it("keeps its view while the writer commits (one transaction per snapshot)", async () => {
    const store = await stores.fresh();
    await seed(store);
    const { snapshotSequence, data } = await store.snapshot(
      async (q) => {
        const before = await q.count("projects");
        await store.append("project-2", 0, [{ type: "ProjectCreated", data: {} }], {
          projections: [
            {
              op: "put",
              table: "projects",
              id: "p2",
              threadId: null,
              sortKey: 2,
              runOrdinal: null,
              status: null,
              data: {},
            },
          ],
        });
        return [before, await q.count("projects")];
      },
      { through: "prisma" },
    );
    expect(data).toEqual([1, 1]);
    expect(snapshotSequence).toBe((await store.headSequence()) - 1);
  });

  it("refuses a read once the store is closed", async () => {
    const store = await stores.fresh();
    await store.snapshot((q) => q.count("projects"), { through: "prisma" });
    await store.close();
    await expect(store.snapshot((q) => q.count("projects"), { through: "prisma" })).rejects.toThrow(
      StoreClosedError,
    );
  });
});

describePostgres("runtime lease list through Prisma", (stores) => {
  it("lists what the driver's get reads, expiry judged by the database clock", async () => {
    const store = await stores.fresh();
    await store.runtimeLeases.acquire("live", "A", 60_000, "http://127.0.0.1:1");
    await store.runtimeLeases.acquire("gone", "B", 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const listed = await store.runtimeLeases.list();
    expect(listed.map((lease) => [lease.threadId, lease.expired])).toEqual([
      ["gone", true],
      ["live", false],
    ]);
    for (const lease of listed) {
      expect(lease).toEqual(await store.runtimeLeases.get(lease.threadId));
    }
  });
});

describe("projection tables", () => {
  it("each has a delegate of the same name in the generated clients", async () => {
    const { PROJECTION_TABLES } = await import("../src/projection-tables.ts");
    const sqlite = await import("../generated/sqlite/client.ts");
    const postgres = await import("../generated/postgresql/client.ts");
    const camel = (table: ProjectionTable) =>
      table.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
    for (const client of [sqlite, postgres]) {
      const models = Object.values(client.Prisma.ModelName).map(
        (name) => name.charAt(0).toLowerCase() + name.slice(1),
      );
      expect(models).toEqual(expect.arrayContaining(PROJECTION_TABLES.map(camel)));
    }
  });
});
