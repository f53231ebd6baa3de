import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { SqliteDatabase } from "./connection.ts";

/** The committed migrations generated from prisma/sqlite/schema.prisma. */
export const SQLITE_MIGRATIONS_DIR = fileURLToPath(
  new URL("../../prisma/sqlite/migrations", import.meta.url),
);

export type Migration = { name: string; sql: string; checksum: string };

export function loadMigrations(dir: string = SQLITE_MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/**
 * Applies the migrations not yet recorded in `_skein_migrations`, in name order, each in its own
 * IMMEDIATE transaction (so two processes opening the same file cannot both apply one). Refuses
 * to open a database whose applied migration was edited afterwards. Returns the names applied.
 */
export function applyMigrations(db: SqliteDatabase, migrations: readonly Migration[]): string[] {
  db.exec(`CREATE TABLE IF NOT EXISTS "_skein_migrations" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "checksum" TEXT NOT NULL,
    "applied_at" TEXT NOT NULL
  )`);
  const find = db.prepare<[string], { checksum: string }>(
    `SELECT checksum FROM "_skein_migrations" WHERE name = ?`,
  );
  const record = db.prepare<[string, string, string]>(
    `INSERT INTO "_skein_migrations" (name, checksum, applied_at) VALUES (?, ?, ?)`,
  );
  const applied: string[] = [];
  for (const migration of migrations) {
    const apply = db.transaction(() => {
      const existing = find.get(migration.name);
      if (existing !== undefined) {
        if (existing.checksum !== migration.checksum) {
          throw new Error(
            `migration ${migration.name} was changed after it was applied; add a new migration instead`,
          );
        }
        return;
      }
      db.exec(migration.sql);
      record.run(migration.name, migration.checksum, new Date().toISOString());
      applied.push(migration.name);
    });
    apply.immediate();
  }
  return applied;
}
