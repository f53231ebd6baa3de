import type { EventStore } from "./event-store.ts";
import { isPostgresUrl } from "./postgres/connection.ts";
import {
  openPostgresEventStore,
  type PostgresEventStoreOptions,
} from "./postgres/postgres-event-store.ts";
import { openSqliteEventStore, type SqliteEventStoreOptions } from "./sqlite/sqlite-event-store.ts";

export type OpenEventStoreOptions = SqliteEventStoreOptions &
  Omit<PostgresEventStoreOptions, "url"> & {
    /**
     * A database URL: `postgres://…` or `postgresql://…` opens the PostgreSQL store (shared by
     * several instances). Without one, the embedded SQLite store in `dataDir`.
     */
    url?: string;
  };

/**
 * Backend-neutral entry point for callers that should not care which database they get. Options
 * that belong to the other backend are ignored.
 */
export async function openEventStore(options: OpenEventStoreOptions = {}): Promise<EventStore> {
  const {
    url,
    dataDir,
    filename,
    temporary,
    busyTimeoutMs,
    schema,
    readConnections,
    pollIntervalMs,
    ...shared
  } = options;
  if (url === undefined) {
    return openSqliteEventStore({ ...shared, dataDir, filename, temporary, busyTimeoutMs });
  }
  if (!isPostgresUrl(url)) {
    throw new Error(
      "event store URL must start with postgres:// or postgresql:// (omit it for SQLite)",
    );
  }
  return openPostgresEventStore({ ...shared, url, schema, readConnections, pollIntervalMs });
}
