import type Database from "better-sqlite3";
import type {
  MessageThreadPageFilter,
  MessageThreadRow,
  ProjectionFilter,
  ProjectionRow,
  SiblingFilter,
  ThreadPageFilter,
  PortFilter,
  TitleFilter,
} from "../event-store.ts";
import { checkedTable, escapeLike, filterClause } from "../projection-sql.ts";
import type { ProjectionTable } from "../projection-types.ts";
import {
  PROJECTION_COLUMNS as COLUMNS,
  type RawProjectionRow as Row,
  toProjectionRow,
  toProjectionRows,
} from "../projection-row.ts";
import { SIBLING_DIGITS } from "../sibling-number.ts";
import type { SqliteDatabase } from "./connection.ts";
import { messageSearchSql, toMessageThreadRows } from "./message-search.ts";

type Params = Record<string, string | number | null>;

/** Title matches up to which a search reads the trigram index's rows rather than the listing. */
const FEW_TITLE_MATCHES = 2_000;

/** A query as one FTS5 phrase: every trigram of it, in order (a substring match). */
function trigramPhrase(query: string): string {
  return `"${query.replaceAll('"', '""')}"`;
}

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
    const sql = `SELECT ${COLUMNS} FROM "${checkedTable(table)}" WHERE id = @id`;
    const row = this.rows(sql).get({ id });
    return row === undefined ? undefined : toProjectionRow(row);
  }

  list(table: ProjectionTable, filter: ProjectionFilter = {}): ProjectionRow[] {
    const { where, params } = whereClause(filter);
    const order = filter.descending ? "sort_key DESC, id DESC" : "sort_key, id";
    let sql = `SELECT ${COLUMNS} FROM "${checkedTable(table)}"${where} ORDER BY ${order}`;
    if (filter.limit !== undefined) {
      sql += " LIMIT @limit";
      params.limit = filter.limit;
    }
    return toProjectionRows(this.rows(sql).all(params));
  }

  threadPage(filter: ThreadPageFilter): ProjectionRow[] {
    const query = filter.query ?? "";
    const indexed = query !== "" && this.fewTitleMatches(query);
    // With the trigram index driving, `+` keeps the planner off the listing index, which it
    // would otherwise walk in page order through every thread, testing each title.
    const plus = indexed ? "+" : "";
    const clauses = [`${plus}visibility = @visibility`];
    const params: Params = { visibility: filter.visibility, limit: filter.limit };
    if (filter.projectId !== undefined) {
      clauses.push(`${plus}project_id = @projectId`);
      params.projectId = filter.projectId;
    }
    if (filter.after !== undefined) {
      clauses.push("(active_at, id) < (@afterActiveAt, @afterId)");
      params.afterActiveAt = filter.after.activeAt;
      params.afterId = filter.after.id;
    }
    if (query !== "") {
      // LIKE is case-insensitive for ASCII in SQLite; the pattern's own % and _ are escaped.
      clauses.push("title LIKE @pattern ESCAPE '\\'");
      params.pattern = `%${escapeLike(query)}%`;
      if (indexed) {
        // The trigram index's rows (a superset: it folds case beyond ASCII) drive the query;
        // LIKE above still decides, so the results are the same as a scan's.
        clauses.push(
          `rowid IN (SELECT rowid FROM "threads_title_search" WHERE "threads_title_search" MATCH @match)`,
        );
        params.match = trigramPhrase(query);
      }
    }
    const sql = `SELECT ${COLUMNS} FROM "threads" WHERE ${clauses.join(" AND ")}
      ORDER BY active_at DESC, id DESC LIMIT @limit`;
    return toProjectionRows(this.rows(sql).all(params));
  }

  messageThreadPage(filter: MessageThreadPageFilter): MessageThreadRow[] {
    const { sql, values } = messageSearchSql(filter);
    return toMessageThreadRows(this.arrays(sql).all(...values));
  }

  highestSibling(filter: SiblingFilter): number {
    // Binary order: every "stem (…" sorts between "stem" and "stem )", so the index reads a range;
    // the number is taken in SQL so a point with hundreds of forks sends one value, not its titles.
    const sql = `SELECT max(CASE WHEN title = @stem THEN 1
        ELSE CAST(substr(title, length(@prefix) + 1, length(title) - length(@prefix) - 1) AS INTEGER)
      END) FROM "threads" WHERE project_id = @projectId
      AND title >= @stem AND title < @end
      AND visibility IN ('active', 'archived')
      AND (title = @stem OR (substr(title, 1, length(@prefix)) = @prefix
        AND substr(title, -1) = ')'
        AND length(title) - length(@prefix) - 1 BETWEEN 1 AND ${SIBLING_DIGITS}
        AND trim(substr(title, length(@prefix) + 1, length(title) - length(@prefix) - 1),
          '0123456789') = ''))`;
    const params = { ...filter, end: `${filter.stem} )`, prefix: `${filter.stem} (` };
    return Number(this.statement(sql).pluck().get(params) ?? 0);
  }

  titleTaken(filter: TitleFilter): boolean {
    const sql = `SELECT 1 FROM "threads" WHERE project_id = @projectId AND title = @title
      AND visibility IN ('active', 'archived') LIMIT 1`;
    return this.statement(sql).pluck().get(filter) !== undefined;
  }

  portsHeld(filter: PortFilter): number[] {
    const sql = `SELECT DISTINCT port FROM "threads" WHERE visibility = 'active'
      AND port BETWEEN @from AND @to AND id <> @except ORDER BY port`;
    const params = { from: filter.from, to: filter.to, except: filter.except ?? "" };
    return this.statement(sql).pluck().all(params) as number[];
  }

  subagentChildren(threadId: string): string[] {
    const sql = `SELECT id FROM "threads" WHERE subagent_of = @threadId
      AND visibility <> 'deleted' ORDER BY id`;
    return this.statement(sql).pluck().all({ threadId }) as string[];
  }

  /**
   * Whether the trigram index narrows a title search to few rows. A query it cannot index (under
   * three characters) or one matching many titles reads faster by walking the listing index in
   * order until a page is full.
   */
  private fewTitleMatches(query: string): boolean {
    if ([...query].length < 3) return false;
    const sql = `SELECT count(*) FROM (SELECT 1 FROM "threads_title_search"
      WHERE "threads_title_search" MATCH @match LIMIT ${FEW_TITLE_MATCHES})`;
    const count = this.statement(sql)
      .pluck()
      .get({ match: trigramPhrase(query) }) as number;
    return count < FEW_TITLE_MATCHES;
  }

  count(table: ProjectionTable, filter: Omit<ProjectionFilter, "limit"> = {}): number {
    const { where, params } = whereClause(filter);
    const sql = `SELECT COUNT(*) AS n FROM "${checkedTable(table)}"${where}`;
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

  /** Positional parameters, rows as arrays (statements cached like the others). */
  private arrays(sql: string): Database.Statement<unknown[], unknown[]> {
    return this.rows(sql) as unknown as Database.Statement<unknown[], unknown[]>;
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

function whereClause(filter: Omit<ProjectionFilter, "limit">): { where: string; params: Params } {
  const params: Params = {};
  const bind = (name: string, value: unknown): string => {
    params[name] = value as string | number | null;
    return `@${name}`;
  };
  const where = filterClause(filter, bind, (statuses) =>
    statuses.length === 0
      ? "0"
      : `status IN (${statuses.map((status, index) => bind(`status${index}`, status)).join(", ")})`,
  );
  return { where, params };
}
