import pg from "pg";
import { openSqliteEventStore } from "../../src/index.ts";
import {
  openPostgresEventStore,
  type PostgresEventStoreOptions,
} from "../../src/postgres/postgres-event-store.ts";
import type { SqliteEventStoreOptions } from "../../src/sqlite/sqlite-event-store.ts";
import type { EventStore } from "../../src/index.ts";

// No vitest imports here: child-process fixtures use this module too.

/** PostgreSQL for the tests; always running on these machines and in CI. */
export const TEST_DATABASE_URL =
  process.env.SKEIN_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

export const STORE_KINDS = ["sqlite", "postgres"] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** Options that both stores understand, plus PostgreSQL's poll interval. */
export type TestStoreOptions = Pick<
  SqliteEventStoreOptions,
  "now" | "subscriberBufferSize" | "snapshotConnections" | "maxBatchSize" | "prismaQueryLog"
> &
  Pick<PostgresEventStoreOptions, "pollIntervalMs">;

export type TestStore = EventStore & { readonly subscriberCount: number };

/**
 * Opens the store at a location: a directory for SQLite, a schema (in TEST_DATABASE_URL) for
 * PostgreSQL. The location is created (and, for PostgreSQL, migrated) if needed.
 */
export async function openAt(
  kind: StoreKind,
  location: string,
  options: TestStoreOptions = {},
): Promise<TestStore> {
  if (kind === "sqlite") {
    const { pollIntervalMs: _unused, ...sqlite } = options;
    return openSqliteEventStore({ ...sqlite, dataDir: location });
  }
  return openPostgresEventStore({ ...options, url: TEST_DATABASE_URL, schema: location });
}

/** An admin connection for creating and dropping test schemas; fails with a clear message. */
export async function connectAdmin(): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: TEST_DATABASE_URL,
    application_name: "skein-test",
  });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is required by the @skein/db tests and is not reachable at ${TEST_DATABASE_URL} ` +
        `(set SKEIN_TEST_DATABASE_URL to point elsewhere): ${String(error)}`,
    );
  }
  return client;
}

let counter = 0;

/** A schema name no other test run uses (pid + clock + counter). */
export function uniqueSchemaName(prefix = "skein_test"): string {
  counter += 1;
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter}`;
}
