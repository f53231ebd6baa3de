import { fileURLToPath } from "node:url";
import { loadMigrations, type Migration } from "../sqlite/migrator.ts";
import { type PgClient, quoteIdent } from "./connection.ts";

/** The committed migrations generated from prisma/postgresql/schema.prisma. */
export const POSTGRES_MIGRATIONS_DIR = fileURLToPath(
  new URL("../../prisma/postgresql/migrations", import.meta.url),
);

/** Advisory-lock class for "migrating a Skein schema"; the second key is the schema's hash. */
const MIGRATION_LOCK_CLASS = 0x736b6d31; // "skm1"

export function loadPostgresMigrations(dir: string = POSTGRES_MIGRATIONS_DIR): Migration[] {
  return loadMigrations(dir);
}

/**
 * Creates the schema if needed and applies the migrations not yet recorded in its
 * `_skein_migrations`, in name order, each in its own transaction (PostgreSQL DDL is
 * transactional, so a failing migration leaves nothing behind). A session advisory lock keyed on
 * the schema serializes instances that start together: the second waits, then finds everything
 * applied. Refuses a schema whose applied migration was edited afterwards. Returns the names
 * applied. Leaves the client's search_path on the schema.
 */
export async function applyPostgresMigrations(
  client: PgClient,
  schema: string,
  migrations: readonly Migration[],
): Promise<string[]> {
  const applied: string[] = [];
  await client.query("SELECT pg_advisory_lock($1, hashtext($2))", [MIGRATION_LOCK_CLASS, schema]);
  try {
    // Checked first: CREATE SCHEMA IF NOT EXISTS still demands CREATE on the database, which a
    // deployment pointing at an existing schema may not grant.
    const exists = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema]);
    if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${quoteIdent(schema)}`);
    await client.query(`SET search_path TO ${quoteIdent(schema)}`);
    await client.query(`CREATE TABLE IF NOT EXISTS "_skein_migrations" (
      "name" TEXT NOT NULL PRIMARY KEY,
      "checksum" TEXT NOT NULL,
      "applied_at" TEXT NOT NULL
    )`);
    for (const migration of migrations) {
      await client.query("BEGIN");
      try {
        const existing = await client.query<{ checksum: string }>(
          `SELECT checksum FROM "_skein_migrations" WHERE name = $1`,
          [migration.name],
        );
        const checksum = existing.rows[0]?.checksum;
        if (checksum !== undefined && checksum !== migration.checksum) {
          throw new Error(
            `migration ${migration.name} was changed after it was applied; add a new migration instead`,
          );
        }
        if (checksum === undefined) {
          await client.query(migration.sql);
          await client.query(
            `INSERT INTO "_skein_migrations" (name, checksum, applied_at) VALUES ($1, $2, $3)`,
            [migration.name, migration.checksum, new Date().toISOString()],
          );
          applied.push(migration.name);
        }
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1, hashtext($2))", [
      MIGRATION_LOCK_CLASS,
      schema,
    ]);
  }
  return applied;
}
