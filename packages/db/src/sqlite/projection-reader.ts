import type Database from "better-sqlite3";
import type { ProjectionFilter, ProjectionRow } from "../event-store.ts";
import { isProjectionTable } from "../projection-tables.ts";
import type { ProjectionTable } from "../projection-types.ts";
import {
  PROJECTION_COLUMNS as COLUMNS,
  type RawProjectionRow as Row,
  toProjectionRow,
} from "../projection-row.ts";
import type { SqliteDatabase } from "./connection.ts";

type Params = Record<string, string | number | null>;

/**
 * Synchronous projection reads on one connection, with statements cached per query shape. The
 * caller provides consistency (a read transaction around several calls).
 *
 * Rows come back in better-sqlite3's `raw()` (array) mode: on 10k-row snapshot reads, building
 * keyed row objects in the driver cost about as much as the SQL itself.
 */
export class ProjectionReader {
  private readonly statements = new Map<string, Database.Statement<[Params], unknown>>();
  private readonly rawStatements = new Map<string, Database.Statement<[Params], Row>>();

  constructor(private readonly db: SqliteDatabase) {}

  get(table: ProjectionTable, id: string): ProjectionRow | undefined {
    const row = this.rows(`SELECT ${COLUMNS} FROM "${checked(table)}" WHERE id = @id`).get({ id });
    return row === undefined ? undefined : toProjectionRow(row);
  }

  list(table: ProjectionTable, filter: ProjectionFilter = {}): ProjectionRow[] {
    const { where, params } = whereClause(filter);
    let sql = `SELECT ${COLUMNS} FROM "${checked(table)}"${where} ORDER BY sort_key, id`;
    if (filter.limit !== undefined) {
      sql += " LIMIT @limit";
      params.limit = filter.limit;
    }
    const rows = this.rows(sql).all(params);
    const out: ProjectionRow[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i += 1) out[i] = toProjectionRow(rows[i] as Row);
    return out;
  }

  count(table: ProjectionTable, filter: Omit<ProjectionFilter, "limit"> = {}): number {
    const { where, params } = whereClause(filter);
    const sql = `SELECT COUNT(*) AS n FROM "${checked(table)}"${where}`;
    return (this.statement(sql).get(params) as { n: number }).n;
  }

  private rows(sql: string): Database.Statement<[Params], Row> {
    let statement = this.rawStatements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare<[Params], Row>(sql).raw();
      this.rawStatements.set(sql, statement);
    }
    return statement;
  }

  private statement(sql: string): Database.Statement<[Params], unknown> {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare<[Params], unknown>(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

function checked(table: ProjectionTable): ProjectionTable {
  if (!isProjectionTable(table)) throw new Error(`unknown projection table ${String(table)}`);
  return table;
}

function whereClause(filter: Omit<ProjectionFilter, "limit">): { where: string; params: Params } {
  const clauses: string[] = [];
  const params: Params = {};
  if (filter.threadId === null) {
    clauses.push("thread_id IS NULL");
  } else if (filter.threadId !== undefined) {
    clauses.push("thread_id = @threadId");
    params.threadId = filter.threadId;
  }
  if (typeof filter.status === "string") {
    clauses.push("status = @status");
    params.status = filter.status;
  } else if (filter.status !== undefined) {
    const names = filter.status.map((status, index) => {
      params[`status${index}`] = status;
      return `@status${index}`;
    });
    clauses.push(names.length === 0 ? "0" : `status IN (${names.join(", ")})`);
  }
  if (filter.maxSortKey !== undefined) {
    clauses.push("sort_key <= @maxSortKey");
    params.maxSortKey = filter.maxSortKey;
  }
  if (filter.maxRunOrdinal !== undefined) {
    clauses.push("(run_ordinal IS NULL OR run_ordinal <= @maxRunOrdinal)");
    params.maxRunOrdinal = filter.maxRunOrdinal;
  }
  return { where: clauses.length === 0 ? "" : ` WHERE ${clauses.join(" AND ")}`, params };
}
