import { createHash } from "node:crypto";
import pg from "pg";

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient | pg.Client;
export type PgPoolClient = pg.PoolClient;

/** Where a store lives: a server (connection string without `schema`) and a schema on it. */
export type PgTarget = {
  connectionString: string;
  schema: string;
  /** Startup `options` from the URL, kept: `pg` would let them replace the store's own. */
  urlOptions: string | null;
};

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const INT8_OID = 20;

/** `postgres://` and `postgresql://` URLs select the PostgreSQL store. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(url);
}

/**
 * Splits a URL into the connection string `pg` understands and the schema to use: the explicit
 * option, else the URL's `?schema=` (Prisma's convention), else `public`. Schema names are limited
 * to plain identifiers because they travel in the startup `options` (`-c search_path=…`), whose
 * parser treats spaces and backslashes specially.
 */
export function resolveTarget(url: string, schema?: string): PgTarget {
  if (!isPostgresUrl(url)) {
    throw new Error(`not a PostgreSQL URL (postgres:// or postgresql://): ${redact(url)}`);
  }
  const parsed = new URL(url);
  const fromUrl = parsed.searchParams.get("schema");
  const urlOptions = parsed.searchParams.get("options");
  parsed.searchParams.delete("schema");
  parsed.searchParams.delete("options");
  const chosen = schema ?? fromUrl ?? "public";
  if (!SCHEMA_NAME.test(chosen)) {
    throw new Error(
      `schema ${JSON.stringify(chosen)} must be a plain identifier (letters, digits, _; ≤ 63)`,
    );
  }
  return { connectionString: parsed.toString(), schema: chosen, urlOptions };
}

/** Connection settings shared by every connection of a store: its schema first on search_path. */
export function clientConfig(target: PgTarget, role: string): pg.ClientConfig {
  return {
    connectionString: target.connectionString,
    options: [target.urlOptions, `-c search_path=${quoteIdent(target.schema)}`]
      .filter((part) => part !== null)
      .join(" "),
    application_name: `skein-${role}`,
    // Notices a silently dropped connection (e.g. the LISTEN one) instead of waiting forever.
    keepAlive: true,
    // Sequences are BIGINT; `pg` returns int8 as text to be safe above 2^53, which a log's
    // sequence (and a COUNT) never reaches, so numbers are what the store's types promise.
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  };
}

export function createPool(
  target: PgTarget,
  role: string,
  max: number,
  extra: pg.PoolConfig = {},
): PgPool {
  const pool = new pg.Pool({
    ...clientConfig(target, role),
    max,
    idleTimeoutMillis: 30_000,
    ...extra,
  });
  // An idle client that loses its connection is dropped by the pool; the next checkout opens a
  // new one. Without a listener the 'error' event would crash the process.
  pool.on("error", () => {});
  // So must a checked-out one, which the pool does not listen to: a server that ends the session
  // between two statements of a transaction (idle_in_transaction_session_timeout after the event
  // loop stalled, an administrator) emits 'error' on it. Its holder then sees the next query fail
  // and hands the client back as broken.
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  return pool;
}

export function quoteIdent(name: string): string {
  return pg.escapeIdentifier(name);
}

/**
 * The NOTIFY channel of one schema's log. Channel names are identifiers (≤ 63 bytes), so a long
 * schema name is hashed; a collision would only cost spurious wake-ups, never a lost event.
 */
export function channelName(schema: string): string {
  const plain = `skein_log_${schema}`;
  if (plain.length <= 63) return plain;
  return `skein_log_${createHash("sha256").update(schema).digest("hex").slice(0, 32)}`;
}

/** The text result of a multi-statement simple query, whichever shape `pg` hands back. */
export function lastResult(result: pg.QueryResult | pg.QueryResult[]): pg.QueryResult {
  const last = Array.isArray(result) ? result.at(-1) : result;
  if (last === undefined) throw new Error("query returned no result");
  return last;
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, "//…@");
}
