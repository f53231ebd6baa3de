import type { EventStore } from "./event-store.ts";
import { openSqliteEventStore, type SqliteEventStoreOptions } from "./sqlite/sqlite-event-store.ts";

export type OpenEventStoreOptions = SqliteEventStoreOptions & {
  /** A database URL. Reserved for PostgreSQL (`postgresql://…`); not supported yet. */
  url?: string;
};

/**
 * Backend-neutral entry point for callers that should not care which database they get. Async
 * because a PostgreSQL store will need to connect and migrate before it is usable.
 */
export async function openEventStore(options: OpenEventStoreOptions = {}): Promise<EventStore> {
  const { url, ...sqlite } = options;
  if (url !== undefined) {
    throw new Error(`event store URL ${JSON.stringify(url)} is not supported yet (SQLite only)`);
  }
  return openSqliteEventStore(sqlite);
}
