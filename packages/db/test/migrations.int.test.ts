import fs from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openSqliteEventStore } from "../src/index.ts";
import { applyMigrations, loadMigrations } from "../src/sqlite/migrator.ts";
import { PROJECTION_TABLES } from "../src/projection-tables.ts";
import { STORE_TABLES } from "./support/store-tables.ts";
import { checkMigrationLockstep, describeSchema } from "../scripts/migration-lockstep.ts";
import { checkSchemaLockstep, compareSchemas } from "../scripts/schema-lockstep.ts";
import { tempDir } from "./support/temp-dir.ts";

const SQLITE_SCHEMA = fs.readFileSync(
  new URL("../prisma/sqlite/schema.prisma", import.meta.url),
  "utf8",
);
const POSTGRES_SCHEMA = fs.readFileSync(
  new URL("../prisma/postgresql/schema.prisma", import.meta.url),
  "utf8",
);

describe("schema lock-step (SQLite ↔ PostgreSQL)", () => {
  it("lock-step: both schema.prisma files declare the same models, fields and indexes", () => {
    expect(checkSchemaLockstep().problems).toEqual([]);
  });

  it("lock-step: the check fails on a model, field, type or index that differs", () => {
    const drifted = [
      POSTGRES_SCHEMA.replace(/^model Plans \{[\s\S]*?^\}/m, ""),
      POSTGRES_SCHEMA.replace("  version  Int\n", "  version  Int\n  extra    String?\n"),
      POSTGRES_SCHEMA.replace(
        'streamVersion Int     @map("stream_version")',
        'streamVersion BigInt  @map("stream_version")',
      ),
      POSTGRES_SCHEMA.replace("sequence      BigInt  @id", "sequence      Int     @id"),
      POSTGRES_SCHEMA.replace("@@unique([streamId, streamVersion])", "@@index([streamId])"),
      POSTGRES_SCHEMA.replace('@@map("checkpoints")', '@@map("checkpoint")'),
    ];
    for (const text of drifted) {
      expect(text).not.toBe(POSTGRES_SCHEMA);
      expect(compareSchemas(SQLITE_SCHEMA, text).length).toBeGreaterThan(0);
    }
  });
});

describe("migrations", () => {
  it("lock-step: committed SQL equals `prisma migrate diff` of schema.prisma", () => {
    expect(checkMigrationLockstep().problems).toEqual([]);
  });

  it("creates every projection table with the generic columns and indexes", () => {
    const db = new Database(":memory:");
    applyMigrations(db, loadMigrations());
    const schema = describeSchema(db);
    db.close();
    expect(Object.keys(schema).sort()).toEqual(STORE_TABLES);
    for (const table of PROJECTION_TABLES) {
      const { columns, indexes } = JSON.parse(schema[table] ?? "{}") as {
        columns: { name: string }[];
        indexes: { columns: string[] }[];
      };
      // `threads` adds the sidebar's listing columns (B7) after the generic ones.
      expect(columns.map((c) => c.name).slice(0, 7)).toEqual([
        "id",
        "thread_id",
        "sort_key",
        "run_ordinal",
        "status",
        "data",
        "updated_sequence",
      ]);
      expect(indexes.map((i) => i.columns.join(","))).toEqual(
        expect.arrayContaining(["thread_id,sort_key", "status"]),
      );
    }
  });

  it("applies migrations on open, once, and is idempotent on reopen", async () => {
    const dataDir = tempDir();
    const first = openSqliteEventStore({ dataDir });
    await first.append("s", 0, [{ type: "T", data: 1 }]);
    await first.close();
    const second = openSqliteEventStore({ dataDir });
    expect(await second.headSequence()).toBe(1);
    await second.close();

    const db = new Database(`${dataDir}/skein.db`);
    const applied = db.prepare("SELECT name FROM _skein_migrations").pluck().all();
    expect(applied).toEqual(loadMigrations().map((m) => m.name));
    expect(applyMigrations(db, loadMigrations())).toEqual([]);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  it("B3: a database from before receipt binding upgrades on open; its receipts still replay", async () => {
    const dataDir = tempDir();
    const db = new Database(`${dataDir}/skein.db`);
    applyMigrations(
      db,
      loadMigrations().filter((m) => m.name < "0004"),
    );
    db.prepare(
      `INSERT INTO command_receipts
         (command_id, stream_id, first_sequence, last_sequence, stream_version, receipt)
       VALUES ('cmd_old', 's', 1, 1, 1, '{"runId":"run_old"}')`,
    ).run();
    db.prepare(
      `INSERT INTO events (sequence, stream_id, stream_version, type, data, command_id, recorded_at)
       VALUES (1, 's', 1, 'T', '1', 'cmd_old', '2026-01-01T00:00:00.000Z')`,
    ).run();
    db.prepare("INSERT INTO streams (stream_id, version) VALUES ('s', 1)").run();
    db.close();
    const store = openSqliteEventStore({ dataDir });
    expect(await store.findReceipt("cmd_old")).toMatchObject({ procedure: "", payloadHash: "" });
    const again = await store.append("s", "any", [{ type: "T", data: 2 }], {
      commandId: "cmd_old",
      binding: { procedure: "thread.sendMessage", payloadHash: "h" },
    });
    expect(again).toMatchObject({ duplicate: true, receipt: { runId: "run_old" } });
    expect(await store.headSequence()).toBe(1);
    await store.close();
  });

  it("refuses a database whose applied migration was edited since", () => {
    const db = new Database(":memory:");
    const [init] = loadMigrations();
    if (init === undefined) throw new Error("no migrations");
    applyMigrations(db, [init]);
    expect(() => applyMigrations(db, [{ ...init, checksum: "edited" }])).toThrow(/was changed/);
    db.close();
  });

  it("a failing migration leaves nothing half-applied", () => {
    const db = new Database(":memory:");
    const broken = { name: "0001_broken", sql: "CREATE TABLE a (x); SELECT nope;", checksum: "x" };
    expect(() => applyMigrations(db, [broken])).toThrow();
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'a'").pluck().get()).toBe(0);
    db.close();
  });
});
