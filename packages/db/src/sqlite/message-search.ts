import type { MessageThreadPageFilter, MessageThreadRow } from "../event-store.ts";
import {
  EXCERPT_BEFORE,
  EXCERPT_LENGTH,
  MESSAGE_SEARCH_SCAN,
  pageClauses,
} from "../message-search.ts";
import { type RawProjectionRow, toProjectionRow } from "../projection-row.ts";
import { escapeLike } from "../projection-sql.ts";

/**
 * Issue 29 on SQLite, as positional SQL any of its clients runs (better-sqlite3, Prisma's raw
 * queries): the newest matching messages come from the trigram index (`messages_text_search`,
 * migration 0009); `LIKE` decides (the index folds case beyond ASCII); their threads are listed
 * in the sidebar's order with the newest match's text around the query.
 */
export function messageSearchSql(filter: MessageThreadPageFilter): {
  sql: string;
  values: (string | number)[];
} {
  const values: (string | number)[] = [];
  const param = (value: string | number): string => {
    values.push(value);
    // Plain `?`: values are pushed in the order the statement names them.
    return "?";
  };
  const match = param(`"${filter.query.replaceAll('"', '""')}"`);
  const pattern = param(`%${escapeLike(filter.query)}%`);
  const query = param(filter.query);
  const clauses = pageClauses(filter, param);
  const sql = `WITH hits AS MATERIALIZED (
      SELECT m.thread_id AS thread_id, max(m.rowid) AS message FROM "messages" m
      WHERE m.rowid IN (SELECT rowid FROM "messages_text_search"
        WHERE "messages_text_search" MATCH ${match} ORDER BY rowid DESC LIMIT ${MESSAGE_SEARCH_SCAN})
        AND json_extract(m.data, '$.text') LIKE ${pattern} ESCAPE '\\'
      GROUP BY m.thread_id)
    SELECT t.id, t.thread_id, t.sort_key, t.run_ordinal, t.status, t.data, t.updated_sequence,
      (SELECT substr(x.text, max(1, instr(lower(x.text), lower(${query})) - ${EXCERPT_BEFORE}),
          ${EXCERPT_LENGTH})
        FROM (SELECT json_extract(m.data, '$.text') AS text FROM "messages" m
          WHERE m.rowid = h.message) x) AS excerpt
    FROM hits h JOIN "threads" t ON t.id = h.thread_id
    WHERE ${clauses.join(" AND ")}
    ORDER BY t.active_at DESC, t.id DESC LIMIT ${param(filter.limit)}`;
  return { sql, values };
}

/** Result rows (projection columns, then the excerpt) as the readers return them. */
export function toMessageThreadRows(rows: readonly unknown[][]): MessageThreadRow[] {
  return rows.map((raw) => ({
    row: toProjectionRow(
      raw.slice(0, 7).map((v) => (typeof v === "bigint" ? Number(v) : v)) as RawProjectionRow,
    ),
    excerpt: String(raw[7] ?? ""),
  }));
}
