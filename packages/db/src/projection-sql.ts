import type { ProjectionFilter } from "./event-store.ts";
import { isProjectionTable } from "./projection-tables.ts";
import type { ProjectionTable } from "./projection-types.ts";

/**
 * SQL the projection readers of both databases write alike. Only binding differs: a dialect
 * passes how it puts one value into a statement (`@name` on SQLite, `$n` on PostgreSQL) and how
 * it matches a list of statuses.
 */
export type Bind = (name: string, value: unknown) => string;

/** Table names are written into the statement's text: only the allow-listed ones get there. */
export function checkedTable(table: ProjectionTable): ProjectionTable {
  if (!isProjectionTable(table)) throw new Error(`unknown projection table ${String(table)}`);
  return table;
}

/** A LIKE pattern's own `%` and `_` taken literally (`\` escapes on both databases). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The WHERE clause of a projection filter ("" when it filters nothing). */
export function filterClause(
  filter: Omit<ProjectionFilter, "limit">,
  bind: Bind,
  statusIn: (statuses: readonly string[]) => string,
): string {
  const clauses: string[] = [];
  if (filter.threadId === null) clauses.push("thread_id IS NULL");
  else if (filter.threadId !== undefined)
    clauses.push(`thread_id = ${bind("threadId", filter.threadId)}`);
  if (typeof filter.status === "string") clauses.push(`status = ${bind("status", filter.status)}`);
  else if (filter.status !== undefined) clauses.push(statusIn(filter.status));
  if (filter.maxSortKey !== undefined)
    clauses.push(`sort_key <= ${bind("maxSortKey", filter.maxSortKey)}`);
  if (filter.maxRunOrdinal !== undefined) {
    const bound = bind("maxRunOrdinal", filter.maxRunOrdinal);
    clauses.push(`(run_ordinal IS NULL OR run_ordinal <= ${bound})`);
  }
  if (filter.minSortKey !== undefined)
    clauses.push(`sort_key >= ${bind("minSortKey", filter.minSortKey)}`);
  if (filter.minRunOrdinal !== undefined) {
    const bound = bind("minRunOrdinal", filter.minRunOrdinal);
    clauses.push(`(run_ordinal IS NULL OR run_ordinal >= ${bound})`);
  }
  if (filter.runOrdinal !== undefined)
    clauses.push(`run_ordinal = ${bind("runOrdinal", filter.runOrdinal)}`);
  return clauses.length === 0 ? "" : ` WHERE ${clauses.join(" AND ")}`;
}
