import type * as Store from "../event-store.ts";
import type { ProjectionTable } from "../projection-types.ts";
import {
  PROJECTION_COLUMNS as COLUMNS,
  type RawProjectionRow as Row,
  toProjectionRow,
  toProjectionRows,
} from "../projection-row.ts";
import { checkedTable, escapeLike, filterClause } from "../projection-sql.ts";
import { SIBLING_DIGITS } from "../sibling-number.ts";
import { type PgClient, quoteIdent } from "./connection.ts";
import { pgMessageThreadPage } from "./pg-message-search.ts";

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

  async get(table: ProjectionTable, id: string): Promise<Store.ProjectionRow | undefined> {
    const rows = await this.rows(`SELECT ${COLUMNS} FROM ${checked(table)} WHERE id = $1`, [id]);
    const row = rows[0];
    return row === undefined ? undefined : toProjectionRow(row);
  }

  async list(
    table: ProjectionTable,
    filter: Store.ProjectionFilter = {},
  ): Promise<Store.ProjectionRow[]> {
    const { where, values } = whereClause(filter);
    const order = filter.descending ? "sort_key DESC, id DESC" : "sort_key, id";
    let sql = `SELECT ${COLUMNS} FROM ${checked(table)}${where} ORDER BY ${order}`;
    if (filter.limit !== undefined) {
      values.push(filter.limit);
      sql += ` LIMIT $${values.length}`;
    }
    return toProjectionRows(await this.rows(sql, values));
  }

  async threadPage(filter: Store.ThreadPageFilter): Promise<Store.ProjectionRow[]> {
    const values: unknown[] = [];
    const param = (value: unknown): string => {
      values.push(value);
      return `$${values.length}`;
    };
    const clauses = [`visibility = ${param(filter.visibility)}`];
    if (filter.projectId !== undefined) clauses.push(`project_id = ${param(filter.projectId)}`);
    if (filter.after !== undefined) {
      clauses.push(
        `(active_at, id) < (${param(filter.after.activeAt)}::text, ${param(filter.after.id)}::text)`,
      );
    }
    if (filter.query !== undefined && filter.query !== "") {
      clauses.push(`title ILIKE ${param(`%${escapeLike(filter.query)}%`)}`);
    }
    const sql = `SELECT ${COLUMNS} FROM "threads" WHERE ${clauses.join(" AND ")}
      ORDER BY active_at DESC, id DESC LIMIT ${param(filter.limit)}`;
    return toProjectionRows(await this.rows(sql, values));
  }

  async highestSibling(filter: Store.SiblingFilter): Promise<number> {
    // LIKE, not a range: the database's collation need not sort "stem (n)" next to "stem".
    const sql = `SELECT max(CASE WHEN title = $2 THEN 1
        ELSE CAST(substr(title, length($3) + 1, length(title) - length($3) - 1) AS bigint) END)
      FROM "threads" WHERE project_id = $1 AND visibility IN ('active', 'archived')
      AND (title = $2 OR (title LIKE $4
        AND substr(title, length($3) + 1) ~ '^[0-9]{1,${SIBLING_DIGITS}}\\)$'))`;
    const prefix = `${filter.stem} (`;
    const pattern = `${escapeLike(prefix)}%`;
    const rows = await this.rows(sql, [filter.projectId, filter.stem, prefix, pattern]);
    return Number(rows[0]?.[0] ?? 0);
  }

  async titleTaken(filter: Store.TitleFilter): Promise<boolean> {
    const sql = `SELECT 1 FROM "threads" WHERE project_id = $1 AND title = $2
      AND visibility IN ('active', 'archived') LIMIT 1`;
    return (await this.rows(sql, [filter.projectId, filter.title])).length > 0;
  }

  async portsHeld(filter: Store.PortFilter): Promise<number[]> {
    const sql = `SELECT DISTINCT port FROM "threads" WHERE visibility = 'active'
      AND port BETWEEN $1 AND $2 AND id <> $3 ORDER BY port`;
    const rows = await this.rows(sql, [filter.from, filter.to, filter.except ?? ""]);
    return rows.map((row) => Number(row[0]));
  }

  async subagentChildren(threadId: string): Promise<string[]> {
    const sql = `SELECT id FROM "threads" WHERE subagent_of = $1 AND visibility <> 'deleted'
      ORDER BY id`;
    return (await this.rows(sql, [threadId])).map((row) => String(row[0]));
  }

  messageThreadPage(filter: Store.MessageThreadPageFilter): Promise<Store.MessageThreadRow[]> {
    return pgMessageThreadPage((text, values) => this.rows(text, values), filter);
  }

  async count(
    table: ProjectionTable,
    filter: Omit<Store.ProjectionFilter, "limit"> = {},
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
  return quoteIdent(checkedTable(table));
}

function whereClause(filter: Omit<Store.ProjectionFilter, "limit">): {
  where: string;
  values: unknown[];
} {
  const values: unknown[] = [];
  const bind = (_name: string, value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  // One array parameter keeps the statement text (and its prepared name) independent of length.
  const where = filterClause(
    filter,
    bind,
    (statuses) => `status = ANY(${bind("statuses", [...statuses])}::text[])`,
  );
  return { where, values };
}
