import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { applyMigrations, loadMigrations } from "../src/sqlite/migrator.ts";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
export const SQLITE_SCHEMA = "prisma/sqlite/schema.prisma";

/** `prisma migrate diff --from-empty --to-schema-datamodel <schema> --script`, offline. */
export function diffFromEmpty(schema: string = SQLITE_SCHEMA): string {
  const cli = path.join(PACKAGE_DIR, "node_modules/prisma/build/index.js");
  return execFileSync(
    process.execPath,
    [cli, "migrate", "diff", "--from-empty", "--to-schema-datamodel", schema, "--script"],
    {
      cwd: PACKAGE_DIR,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    },
  );
}

export type LockstepReport = { problems: string[] };

/**
 * The committed migrations must produce exactly the schema Prisma derives from schema.prisma.
 * Compared structurally (columns, keys, indexes) on two scratch databases, so it keeps working
 * once later migrations ALTER what 0001 created; while 0001 is the only migration it must also
 * be byte-identical to a fresh from-empty diff.
 */
export function checkMigrationLockstep(): LockstepReport {
  const problems: string[] = [];
  const fresh = diffFromEmpty();
  const migrations = loadMigrations();
  const [first] = migrations;
  if (migrations.length === 1 && first !== undefined && first.sql !== fresh) {
    problems.push(
      `${first.name}/migration.sql differs from the diff of ${SQLITE_SCHEMA}; regenerate it with \`pnpm --filter @skein/db db:migration:diff\``,
    );
  }
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "skein-lockstep-"));
  try {
    const viaMigrations = new Database(path.join(scratch, "migrations.db"));
    applyMigrations(viaMigrations, migrations);
    const viaSchema = new Database(path.join(scratch, "schema.db"));
    viaSchema.exec(fresh);
    const expected = describeSchema(viaSchema);
    const actual = describeSchema(viaMigrations);
    viaMigrations.close();
    viaSchema.close();
    for (const name of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      if (expected[name] !== actual[name]) {
        problems.push(
          `${name}: schema.prisma gives ${expected[name] ?? "nothing"}, migrations give ${actual[name] ?? "nothing"}`,
        );
      }
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return { problems };
}

/**
 * table name → a canonical text of its columns and indexes (bookkeeping tables left out, and the
 * FTS5 searches of migrations 0006 and 0009, which Prisma cannot declare).
 */
export function describeSchema(db: Database.Database): Record<string, string> {
  const tables = db
    .prepare<[], string>(
      `SELECT name FROM sqlite_master WHERE type = 'table'
       AND name NOT LIKE 'sqlite_%' AND name <> '_skein_migrations'
       AND name NOT LIKE 'threads_title_search%'
       AND name NOT LIKE 'messages_text_search%' ORDER BY name`,
    )
    .pluck()
    .all();
  const described: Record<string, string> = {};
  for (const table of tables) {
    const columns = db
      .prepare(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)`)
      .all(table);
    const indexes = db
      .prepare<[string], { name: string; unique: number }>(
        `SELECT name, "unique" FROM pragma_index_list(?) ORDER BY name`,
      )
      .all(table)
      .map((index) => ({
        ...index,
        columns: db
          .prepare<[string], string>(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`)
          .pluck()
          .all(index.name),
      }));
    described[table] = JSON.stringify({ columns, indexes });
  }
  return described;
}
