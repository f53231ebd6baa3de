import pg from "pg";
import { applyPostgresMigrations, loadPostgresMigrations } from "../src/postgres/migrator.ts";
import { diffFromEmpty } from "./migration-lockstep.ts";
import { POSTGRES_SCHEMA } from "./schema-lockstep.ts";

/** Where the check creates (and drops) its two scratch schemas. */
export const LOCKSTEP_DATABASE_URL =
  process.env.SKEIN_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

const DESCRIBE_COLUMNS = `
  SELECT table_name, column_name, data_type, is_nullable, column_default
  FROM information_schema.columns
  WHERE table_schema = $1 AND table_name <> '_skein_migrations'
  ORDER BY table_name, ordinal_position`;

// Index shape without names of schemas: columns in key order, unique, primary. The title
// and message searches' trigram indexes (migrations 0006, 0009) have no Prisma form and are left out.
const DESCRIBE_INDEXES = `
  SELECT t.relname AS table_name, i.relname AS index_name, ix.indisunique AS is_unique,
    ix.indisprimary AS is_primary,
    array(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, n)
          JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum
          ORDER BY k.n)::text[] AS columns
  FROM pg_index ix
  JOIN pg_class i ON i.oid = ix.indexrelid
  JOIN pg_class t ON t.oid = ix.indrelid
  JOIN pg_namespace ns ON ns.oid = t.relnamespace
  WHERE ns.nspname = $1 AND t.relname <> '_skein_migrations'
    AND i.relname NOT IN ('threads_title_trgm_idx', 'messages_text_trgm_idx')
  ORDER BY t.relname, i.relname`;

/** table name → a canonical text of its columns and indexes (bookkeeping table left out). */
export async function describePostgresSchema(
  client: pg.Client,
  schema: string,
): Promise<Record<string, string>> {
  const columns = await client.query<{ table_name: string }>(DESCRIBE_COLUMNS, [schema]);
  const indexes = await client.query<{ table_name: string }>(DESCRIBE_INDEXES, [schema]);
  const described: Record<string, { columns: unknown[]; indexes: unknown[] }> = {};
  const entry = (table: string) => {
    described[table] ??= { columns: [], indexes: [] };
    return described[table];
  };
  for (const { table_name, ...column } of columns.rows) entry(table_name).columns.push(column);
  for (const { table_name, ...index } of indexes.rows) entry(table_name).indexes.push(index);
  return Object.fromEntries(
    Object.entries(described).map(([table, shape]) => [table, JSON.stringify(shape)]),
  );
}

/**
 * The PostgreSQL twin of checkMigrationLockstep: the committed migrations, applied by the store's
 * migrator, must give the same tables as `prisma migrate diff` of schema.prisma; while 0001 is
 * the only migration it must also be byte-identical to the diff.
 */
export async function checkPostgresMigrationLockstep(
  url: string = LOCKSTEP_DATABASE_URL,
): Promise<{ problems: string[] }> {
  const problems: string[] = [];
  const fresh = diffFromEmpty(POSTGRES_SCHEMA);
  const migrations = loadPostgresMigrations();
  const [first] = migrations;
  if (migrations.length === 1 && first !== undefined && first.sql !== fresh) {
    problems.push(
      `postgresql ${first.name}/migration.sql differs from the diff of ${POSTGRES_SCHEMA}; regenerate it with \`pnpm --filter @skein/db db:migration:diff:postgresql\``,
    );
  }
  const stamp = `${process.pid}_${Date.now().toString(36)}`;
  const viaMigrations = `skein_lockstep_${stamp}_m`;
  const viaSchema = `skein_lockstep_${stamp}_s`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await applyPostgresMigrations(client, viaMigrations, migrations);
    await client.query(`CREATE SCHEMA "${viaSchema}"; SET search_path TO "${viaSchema}"`);
    await client.query(fresh);
    const expected = await describePostgresSchema(client, viaSchema);
    const actual = await describePostgresSchema(client, viaMigrations);
    for (const name of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      if (expected[name] !== actual[name]) {
        problems.push(
          `postgresql ${name}: schema.prisma gives ${expected[name] ?? "nothing"}, migrations give ${actual[name] ?? "nothing"}`,
        );
      }
    }
  } finally {
    await client.query(
      `DROP SCHEMA IF EXISTS "${viaMigrations}" CASCADE; DROP SCHEMA IF EXISTS "${viaSchema}" CASCADE`,
    );
    await client.end();
  }
  return { problems };
}
