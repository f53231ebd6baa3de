import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEventStore } from "../src/index.ts";
import { applyPostgresMigrations, loadPostgresMigrations } from "../src/postgres/migrator.ts";
import { openPostgresEventStore } from "../src/postgres/postgres-event-store.ts";
import { PROJECTION_TABLES } from "../src/projection-tables.ts";
import { STORE_TABLES } from "./support/store-tables.ts";
import {
  checkPostgresMigrationLockstep,
  describePostgresSchema,
} from "../scripts/postgres-lockstep.ts";
import { describePostgres } from "./support/store-factory.ts";
import { connectAdmin, TEST_DATABASE_URL } from "./support/test-database.ts";

let admin: pg.Client;
beforeAll(async () => {
  admin = await connectAdmin();
});
afterAll(async () => {
  await admin.end();
});

async function applied(schema: string): Promise<string[]> {
  const { rows } = await admin.query<{ name: string }>(
    `SELECT name FROM "${schema}"."_skein_migrations" ORDER BY name`,
  );
  return rows.map((row) => row.name);
}

describePostgres("migrations", (stores) => {
  it("lock-step: committed SQL equals `prisma migrate diff` of postgresql/schema.prisma", async () => {
    expect((await checkPostgresMigrationLockstep(TEST_DATABASE_URL)).problems).toEqual([]);
  });

  it("creates every projection table with the generic columns and indexes", async () => {
    const schema = stores.location();
    await (await stores.open(schema)).close();
    const described = await describePostgresSchema(admin, schema);
    expect(Object.keys(described).sort()).toEqual(STORE_TABLES);
    for (const table of PROJECTION_TABLES) {
      const { columns, indexes } = JSON.parse(described[table] ?? "{}") as {
        columns: { column_name: string; data_type: string }[];
        indexes: { columns: string[] }[];
      };
      // `threads` adds the sidebar's listing columns (B7) after the generic ones.
      expect(columns.map((c) => `${c.column_name} ${c.data_type}`).slice(0, 7)).toEqual([
        "id text",
        "thread_id text",
        "sort_key integer",
        "run_ordinal integer",
        "status text",
        "data text",
        "updated_sequence bigint",
      ]);
      expect(indexes.map((i) => i.columns.join(","))).toEqual(
        expect.arrayContaining(["id", "thread_id,sort_key", "status"]),
      );
    }
  });

  it("applies migrations on open, once, and is idempotent on reopen", async () => {
    const schema = stores.location();
    const first = await stores.open(schema);
    await first.append("s", 0, [{ type: "T", data: 1 }]);
    await first.close();
    const second = await stores.open(schema);
    expect(await second.headSequence()).toBe(1);
    await second.close();
    expect(await applied(schema)).toEqual(loadPostgresMigrations().map((m) => m.name));
    expect(await applyPostgresMigrations(admin, schema, loadPostgresMigrations())).toEqual([]);
  });

  it("instances starting together on an empty schema migrate it once (advisory lock)", async () => {
    const schema = stores.location();
    const opened = await Promise.all(Array.from({ length: 4 }, () => stores.open(schema)));
    await Promise.all(
      opened.map((store, i) => store.append(`s-${i}`, 0, [{ type: "T", data: i }])),
    );
    expect(await opened[0]?.headSequence()).toBe(4);
    expect(await applied(schema)).toEqual(loadPostgresMigrations().map((m) => m.name));
  });

  it("refuses a schema whose applied migration was edited since", async () => {
    const schema = stores.location();
    const [init] = loadPostgresMigrations();
    if (init === undefined) throw new Error("no migrations");
    await applyPostgresMigrations(admin, schema, [init]);
    await expect(
      applyPostgresMigrations(admin, schema, [{ ...init, checksum: "edited" }]),
    ).rejects.toThrow(/was changed/);
    // The session lock was released on the way out: migrating again still works.
    expect(await applyPostgresMigrations(admin, schema, [init])).toEqual([]);
  });

  it("a failing migration leaves nothing half-applied", async () => {
    const schema = stores.location();
    const broken = {
      name: "0001_broken",
      sql: "CREATE TABLE a (x int); SELECT nope;",
      checksum: "x",
    };
    await expect(applyPostgresMigrations(admin, schema, [broken])).rejects.toThrow();
    const { rowCount } = await admin.query(
      "SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = 'a'",
      [schema],
    );
    expect(rowCount).toBe(0);
    expect(await applied(schema)).toEqual([]);
  });

  it("openEventStore picks PostgreSQL for postgres:// URLs and honours ?schema=", async () => {
    const schema = stores.location();
    const url = `${TEST_DATABASE_URL.replace(/^postgresql:/, "postgres:")}?schema=${schema}`;
    const store = await openEventStore({ url });
    try {
      await store.append("s", 0, [{ type: "T", data: "x" }]);
      const { rows } = await admin.query(`SELECT stream_id FROM "${schema}".events`);
      expect(rows).toEqual([{ stream_id: "s" }]);
    } finally {
      await store.close();
    }
    await expect(openEventStore({ url: "mysql://localhost/x" })).rejects.toThrow(/postgres/);
    await expect(
      openPostgresEventStore({ url: TEST_DATABASE_URL, schema: "bad name; DROP" }),
    ).rejects.toThrow(/plain identifier/);
  });
});

describe("openEventStore", () => {
  it("opens SQLite when no URL is given", async () => {
    const store = await openEventStore({ temporary: true });
    expect("file" in store).toBe(true);
    await store.close();
  });
});
