import type { ProjectionFilter, ProjectionRow } from "../event-store.ts";
import { isProjectionTable } from "../projection-tables.ts";
import type { ProjectionTable } from "../projection-types.ts";
import {
  PROJECTION_COLUMNS as COLUMNS,
  type RawProjectionRow as Row,
  toProjectionRow,
} from "../projection-row.ts";
import { type PgClient, quoteIdent } from "./connection.ts";

/**
 * Projection reads on one client (inside a snapshot's transaction). Statements are named per query
 * shape so each connection parses a shape once; rows come back as arrays, as in the SQLite reader.
 * Calls are chained: `pg` deprecates queueing a query on a client that is still busy, and a read
 * callback may well issue several reads at once.
 */
export class PgProjectionReader {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: PgClient,
    private readonly names: StatementNames,
  ) {}

  async get(table: ProjectionTable, id: string): Promise<ProjectionRow | undefined> {
    const rows = await this.rows(`SELECT ${COLUMNS} FROM ${checked(table)} WHERE id = $1`, [id]);
    const row = rows[0];
    return row === undefined ? undefined : toProjectionRow(row);
  }

  async list(table: ProjectionTable, filter: ProjectionFilter = {}): Promise<ProjectionRow[]> {
    const { where, values } = whereClause(filter);
    let sql = `SELECT ${COLUMNS} FROM ${checked(table)}${where} ORDER BY sort_key, id`;
    if (filter.limit !== undefined) {
      values.push(filter.limit);
      sql += ` LIMIT $${values.length}`;
    }
    const rows = await this.rows(sql, values);
    const out: ProjectionRow[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i += 1) out[i] = toProjectionRow(rows[i] as Row);
    return out;
  }

  async count(
    table: ProjectionTable,
    filter: Omit<ProjectionFilter, "limit"> = {},
  ): Promise<number> {
    const { where, values } = whereClause(filter);
    const rows = await this.rows(`SELECT COUNT(*) FROM ${checked(table)}${where}`, values);
    return Number(rows[0]?.[0] ?? 0);
  }

  private rows(text: string, values: unknown[]): Promise<Row[]> {
    const run = async (): Promise<Row[]> => {
      const result = await this.client.query<Row>({
        name: this.names.of(text),
        text,
        values,
        rowMode: "array",
      });
      return result.rows;
    };
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => {});
    return result;
  }
}

/** Prepared-statement names per SQL text, shared by a store's connections. */
export class StatementNames {
  private readonly names = new Map<string, string>();

  of(text: string): string {
    let name = this.names.get(text);
    if (name === undefined) {
      name = `skein_projection_${this.names.size}`;
      this.names.set(text, name);
    }
    return name;
  }
}

function checked(table: ProjectionTable): string {
  if (!isProjectionTable(table)) throw new Error(`unknown projection table ${String(table)}`);
  return quoteIdent(table);
}

function whereClause(filter: Omit<ProjectionFilter, "limit">): {
  where: string;
  values: unknown[];
} {
  const clauses: string[] = [];
  const values: unknown[] = [];
  const param = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  if (filter.threadId === null) {
    clauses.push("thread_id IS NULL");
  } else if (filter.threadId !== undefined) {
    clauses.push(`thread_id = ${param(filter.threadId)}`);
  }
  if (typeof filter.status === "string") {
    clauses.push(`status = ${param(filter.status)}`);
  } else if (filter.status !== undefined) {
    // One array parameter keeps the statement text (and its prepared name) independent of length.
    clauses.push(`status = ANY(${param([...filter.status])}::text[])`);
  }
  if (filter.maxSortKey !== undefined) {
    clauses.push(`sort_key <= ${param(filter.maxSortKey)}`);
  }
  if (filter.maxRunOrdinal !== undefined) {
    clauses.push(`(run_ordinal IS NULL OR run_ordinal <= ${param(filter.maxRunOrdinal)})`);
  }
  return { where: clauses.length === 0 ? "" : ` WHERE ${clauses.join(" AND ")}`, values };
}
