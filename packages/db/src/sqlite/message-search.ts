import type Database from "better-sqlite3";
import type { MessageThreadPageFilter, MessageThreadRow } from "../event-store.ts";
import { EXCERPT_BEFORE, EXCERPT_LENGTH, MESSAGE_SEARCH_SCAN } from "../message-search.ts";
import { type RawProjectionRow, toProjectionRow } from "../projection-row.ts";
import { escapeLike } from "./projection-reader.ts";

type Params = Record<string, string | number>;
type Prepare = (sql: string) => Database.Statement<[Params], unknown[]>;

/**
 * Issue 29: the newest matching messages come from the trigram index (`messages_text_search`,
 * migration 0009); `LIKE` decides (the index folds case beyond ASCII), then their threads are
 * listed in the sidebar's order with the newest match's text around the query.
 */
export function messageThreadPage(
  prepare: Prepare,
  filter: MessageThreadPageFilter,
): MessageThreadRow[] {
  const params: Params = {
    match: `"${filter.query.replaceAll('"', '""')}"`,
    pattern: `%${escapeLike(filter.query)}%`,
    query: filter.query,
    visibility: filter.visibility,
    limit: filter.limit,
  };
  const clauses = ["t.visibility = @visibility"];
  if (filter.projectId !== undefined) {
    clauses.push("t.project_id = @projectId");
    params.projectId = filter.projectId;
  }
  if (filter.after !== undefined) {
    clauses.push("(t.active_at, t.id) < (@afterActiveAt, @afterId)");
    params.afterActiveAt = filter.after.activeAt;
    params.afterId = filter.after.id;
  }
  const sql = `WITH hits AS MATERIALIZED (
      SELECT m.thread_id AS thread_id, max(m.rowid) AS message FROM "messages" m
      WHERE m.rowid IN (SELECT rowid FROM "messages_text_search"
        WHERE "messages_text_search" MATCH @match ORDER BY rowid DESC LIMIT ${MESSAGE_SEARCH_SCAN})
        AND json_extract(m.data, '$.text') LIKE @pattern ESCAPE '\\'
      GROUP BY m.thread_id)
    SELECT t.id, t.thread_id, t.sort_key, t.run_ordinal, t.status, t.data, t.updated_sequence,
      (SELECT substr(x.text, max(1, instr(lower(x.text), lower(@query)) - ${EXCERPT_BEFORE}),
          ${EXCERPT_LENGTH})
        FROM (SELECT json_extract(m.data, '$.text') AS text FROM "messages" m
          WHERE m.rowid = h.message) x)
    FROM hits h JOIN "threads" t ON t.id = h.thread_id
    WHERE ${clauses.join(" AND ")}
    ORDER BY t.active_at DESC, t.id DESC LIMIT @limit`;
  const rows = prepare(sql).all(params);
  return rows.map((raw) => ({
    row: toProjectionRow(raw.slice(0, 7) as RawProjectionRow),
    excerpt: String(raw[7] ?? ""),
  }));
}
