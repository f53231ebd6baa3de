import type Database from "better-sqlite3";
import type { PreparedWrite } from "../prepare-append.ts";
import type { ThreadListing } from "../thread-listing.ts";
import type { SqliteDatabase } from "./connection.ts";

type Statement<P extends unknown[], R = unknown> = Database.Statement<P, R>;
type Put = Extract<PreparedWrite, { op: "put" }>;
type Value = string | number | null;

/** A `threads` row's indexed columns as stored: the projection keys, then the listing. */
type Stored = [Value, number, Value, Value, Value, Value, Value, Value, Value, Value];

/**
 * Migration 0013: a `threads` row is written with its listing columns (project, title, activity
 * time, visibility; since 0014 the port it holds, since 0015 the thread it is a sub-agent of) in
 * the same statement, computed from its data before the transaction. The triggers that derived
 * them did it with a second UPDATE of the row just written, so a new thread wrote each listing
 * index twice and every activity update parsed the row's JSON six times over and ran a statement
 * more. As for the other tables, an update names only the columns that moved, so it rewrites only
 * the indexes that hold them; the title search follows the title by trigger.
 */
export class ThreadRowWriter {
  private readonly keys: Statement<[string], Stored>;
  private readonly insert: Statement<Value[]>;
  private readonly all: Statement<Value[]>;
  private readonly identity: Statement<Value[]>;
  private readonly activity: Statement<Value[]>;
  private readonly activityStatus: Statement<Value[]>;

  /** `plain`: the table's own updates for a write that moves no listing column. */
  constructor(
    db: SqliteDatabase,
    private readonly plain: {
      status: Statement<[string | null, string, number, string]>;
      data: Statement<[string, number, string]>;
    },
  ) {
    this.keys = db
      .prepare<[string], Stored>(
        `SELECT thread_id, sort_key, run_ordinal, status, project_id, title, active_at, visibility,
           port, subagent_of FROM "threads" WHERE id = ?`,
      )
      .raw();
    this.insert = db.prepare<Value[]>(
      `INSERT INTO "threads" (id, thread_id, sort_key, run_ordinal, status, data, updated_sequence,
         project_id, title, active_at, visibility, port, subagent_of)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.all = db.prepare<Value[]>(
      `UPDATE "threads" SET thread_id = ?, sort_key = ?, run_ordinal = ?, status = ?, data = ?,
         updated_sequence = ?, project_id = ?, title = ?, active_at = ?, visibility = ?, port = ?,
         subagent_of = ? WHERE id = ?`,
    );
    this.identity = db.prepare<Value[]>(
      `UPDATE "threads" SET status = ?, data = ?, updated_sequence = ?, project_id = ?, title = ?,
         active_at = ?, visibility = ?, port = ?, subagent_of = ? WHERE id = ?`,
    );
    this.activity = db.prepare<Value[]>(
      `UPDATE "threads" SET data = ?, updated_sequence = ?, active_at = ? WHERE id = ?`,
    );
    this.activityStatus = db.prepare<Value[]>(
      `UPDATE "threads" SET status = ?, data = ?, updated_sequence = ?, active_at = ? WHERE id = ?`,
    );
  }

  apply(write: Put, listing: ThreadListing, sequence: number): void {
    const { id, threadId, sortKey, runOrdinal, status, json } = write;
    const { projectId, title, activeAt, visibility, port, subagentOf } = listing;
    const stored = this.keys.get(id);
    if (stored === undefined) {
      this.insert.run(
        id,
        threadId,
        sortKey,
        runOrdinal,
        status,
        json,
        sequence,
        ...listed(listing),
      );
      return;
    }
    const [storedThread, storedSort, storedRun, storedStatus, storedProject, storedTitle] = stored;
    if (storedThread !== threadId || storedSort !== sortKey || storedRun !== runOrdinal) {
      this.all.run(threadId, sortKey, runOrdinal, status, json, sequence, ...listed(listing), id);
    } else if (
      storedProject !== projectId ||
      storedTitle !== title ||
      stored[7] !== visibility ||
      stored[8] !== port ||
      stored[9] !== subagentOf
    ) {
      this.identity.run(status, json, sequence, ...listed(listing), id);
    } else if (stored[6] !== activeAt) {
      if (storedStatus !== status) this.activityStatus.run(status, json, sequence, activeAt, id);
      else this.activity.run(json, sequence, activeAt, id);
    } else if (storedStatus !== status) {
      this.plain.status.run(status, json, sequence, id);
    } else {
      this.plain.data.run(json, sequence, id);
    }
  }
}

function listed(listing: ThreadListing): Value[] {
  const { projectId, title, activeAt, visibility, port, subagentOf } = listing;
  return [projectId, title, activeAt, visibility, port, subagentOf];
}
