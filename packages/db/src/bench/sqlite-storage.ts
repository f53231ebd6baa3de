import path from "node:path";
import Database from "better-sqlite3";
import { DEFAULT_FILENAME } from "../sqlite/connection.ts";

/** Bytes a SQLite database holds in live pages, in all and per table (its indexes included). */
export type SqliteStorage = { totalBytes: number; byTable: Map<string, number> };

/**
 * What a closed SQLite store (`dataDir`'s database) takes on disk, from its pages (`dbstat`):
 * free pages, which the next writes reuse, are left out. A table's bytes include its indexes
 * and overflow pages, as PostgreSQL's `pg_total_relation_size` counts a table.
 */
export function sqliteStorage(dataDir: string, filename = DEFAULT_FILENAME): SqliteStorage {
  const db = new Database(path.resolve(dataDir, filename), { readonly: true });
  try {
    const pages = db
      .prepare<[], { name: string; tbl_name: string; bytes: number }>(
        `SELECT s.name, coalesce(m.tbl_name, s.name) AS tbl_name, sum(s.pgsize) AS bytes
         FROM dbstat AS s LEFT JOIN sqlite_schema AS m ON m.name = s.name GROUP BY s.name`,
      )
      .all();
    const byTable = new Map<string, number>();
    let totalBytes = 0;
    for (const page of pages) {
      byTable.set(page.tbl_name, (byTable.get(page.tbl_name) ?? 0) + page.bytes);
      totalBytes += page.bytes;
    }
    return { totalBytes, byTable };
  } finally {
    db.close();
  }
}
