import type Database from "better-sqlite3";
import type { PreparedWrite } from "../prepare-append.ts";
import type { ProjectionTable } from "../projection-types.ts";
import type { SqliteDatabase } from "./connection.ts";
import { ThreadRowWriter } from "./thread-row-writer.ts";

type Statement<P extends unknown[], R = unknown> = Database.Statement<P, R>;

/** A row's indexed columns as stored: thread_id, sort_key, run_ordinal, status. */
type Keys = [string | null, number, number | null, string | null];

/** One projection table's statements, prepared on its first write. */
type TableStatements = {
  keys: Statement<[string], Keys>;
  insert: Statement<[string, string | null, number, number | null, string | null, string, number]>;
  /** Indexed columns unchanged: the row's own page is all that is written. */
  data: Statement<[string, number, string]>;
  /** Only the status moved: the status index is rewritten, the others are not. */
  status: Statement<[string | null, string, number, string]>;
  all: Statement<[string | null, number, number | null, string | null, string, number, string]>;
  remove: Statement<[string]>;
};

/**
 * Writes projection rows inside the writer's transaction. SQLite rewrites an index whenever an
 * UPDATE names one of its columns, whether or not the value changed, and every index page it
 * touches is one more page in the commit's WAL write (the bulk of an append's CPU: each page is
 * two write system calls and a checksum). Most row writes change only `data` (a thread's activity
 * time, a run's fields) or also the status, so the row's stored keys are read first (a primary-key
 * lookup on a page the update is about to write anyway) and the update names only what moved.
 * The stored row ends up exactly as the former all-columns upsert left it.
 */
export class ProjectionWriter {
  private readonly tables = new Map<ProjectionTable, TableStatements>();
  /** Prepared with the first thread row written. */
  private threads: ThreadRowWriter | null = null;

  constructor(private readonly db: SqliteDatabase) {}

  apply(write: PreparedWrite, sequence: number): void {
    const statements = this.statements(write.table);
    if (write.op === "delete") {
      statements.remove.run(write.id);
      return;
    }
    if (write.listing !== null) {
      this.threads ??= new ThreadRowWriter(this.db, statements);
      this.threads.apply(write, write.listing, sequence);
      return;
    }
    const { id, threadId, sortKey, runOrdinal, status, json } = write;
    const stored = statements.keys.get(id);
    if (stored === undefined) {
      statements.insert.run(id, threadId, sortKey, runOrdinal, status, json, sequence);
    } else if (stored[0] !== threadId || stored[1] !== sortKey || stored[2] !== runOrdinal) {
      statements.all.run(threadId, sortKey, runOrdinal, status, json, sequence, id);
    } else if (stored[3] !== status) {
      statements.status.run(status, json, sequence, id);
    } else {
      statements.data.run(json, sequence, id);
    }
  }

  // Table names come from the PROJECTION_TABLES allow-list (checked in prepareAppend).
  private statements(table: ProjectionTable): TableStatements {
    let statements = this.tables.get(table);
    if (statements === undefined) {
      const db = this.db;
      statements = {
        keys: db
          .prepare<[string], Keys>(
            `SELECT thread_id, sort_key, run_ordinal, status FROM "${table}" WHERE id = ?`,
          )
          .raw(),
        insert: db.prepare(
          `INSERT INTO "${table}" (id, thread_id, sort_key, run_ordinal, status, data,
             updated_sequence) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        ),
        data: db.prepare(`UPDATE "${table}" SET data = ?, updated_sequence = ? WHERE id = ?`),
        status: db.prepare(
          `UPDATE "${table}" SET status = ?, data = ?, updated_sequence = ? WHERE id = ?`,
        ),
        all: db.prepare(
          `UPDATE "${table}" SET thread_id = ?, sort_key = ?, run_ordinal = ?, status = ?,
             data = ?, updated_sequence = ? WHERE id = ?`,
        ),
        remove: db.prepare(`DELETE FROM "${table}" WHERE id = ?`),
      };
      this.tables.set(table, statements);
    }
    return statements;
  }
}
