import type pg from "pg";
import type { PrismaLike } from "./prisma-snapshots.ts";

/** Tests: sees the SQL of every query the store sends through Prisma. */
export type PrismaQueryLog = (sql: string) => void;

type LoggedClient = { $on(event: "query", listener: (event: { query: string }) => void): void };

/** Query events only when asked for: Prisma's logging costs on every query. */
function logLevels(log: PrismaQueryLog | undefined): { emit: "event"; level: "query" }[] {
  return log ? [{ emit: "event", level: "query" }] : [];
}

function withLog<C>(client: C, log: PrismaQueryLog | undefined): PrismaLike {
  if (log) (client as LoggedClient).$on("query", (event) => log(event.query));
  // The generated clients type their transaction options by provider; PrismaSnapshots passes
  // only what the provider accepts (an isolation level on PostgreSQL alone).
  return client as unknown as PrismaLike;
}

/**
 * The SQLite client over its own read-only connection to the store's file, through the
 * better-sqlite3 driver adapter (the store's driver). The generated client and the adapter are
 * imported here, on first use, so opening a store and appending never load Prisma.
 */
export async function connectSqlitePrisma(
  file: string,
  busyTimeoutMs: number,
  log?: PrismaQueryLog,
): Promise<PrismaLike> {
  const [{ PrismaClient }, { PrismaBetterSQLite3 }] = await Promise.all([
    import("../../generated/sqlite/client.ts"),
    import("@prisma/adapter-better-sqlite3"),
  ]);
  const adapter = new PrismaBetterSQLite3({ url: file, readonly: true, timeout: busyTimeoutMs });
  return withLog(new PrismaClient({ adapter, log: logLevels(log) }), log);
}

/**
 * The PostgreSQL client on the store's own pool (the pg driver adapter over an external pool,
 * which it leaves open: the store ends its pools itself), qualifying tables with its schema.
 */
export async function connectPgPrisma(
  pool: pg.Pool,
  schema: string,
  log?: PrismaQueryLog,
): Promise<PrismaLike> {
  const [{ PrismaClient }, { PrismaPg }] = await Promise.all([
    import("../../generated/postgresql/client.ts"),
    import("@prisma/adapter-pg"),
  ]);
  const adapter = new PrismaPg(pool, { schema });
  return withLog(new PrismaClient({ adapter, log: logLevels(log) }), log);
}
