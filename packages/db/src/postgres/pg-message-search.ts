import type { MessageThreadPageFilter, MessageThreadRow } from "../event-store.ts";
import {
  EXCERPT_BEFORE,
  EXCERPT_LENGTH,
  MESSAGE_SEARCH_SCAN,
  pageClauses,
} from "../message-search.ts";
import { toMessageThreadRows } from "../sqlite/message-search.ts";
import { escapeLike } from "../projection-sql.ts";

type Rows = (text: string, values: unknown[]) => Promise<unknown[][]>;

/**
 * Issue 29: the SQLite reader's message search on PostgreSQL: the newest matching messages by
 * `ILIKE` over their text (the trigram index of migration 0009 finds them), then their threads in
 * the sidebar's order with the newest match's text around the query.
 */
export async function pgMessageThreadPage(
  rows: Rows,
  filter: MessageThreadPageFilter,
): Promise<MessageThreadRow[]> {
  const values: unknown[] = [];
  const param = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const pattern = param(`%${escapeLike(filter.query)}%`);
  const query = param(filter.query);
  // Text parameters: the row comparison needs their type spelled out.
  const clauses = pageClauses(filter, (value) => `${param(value)}::text`);
  const sql = `WITH matched AS MATERIALIZED (
      SELECT thread_id, updated_sequence, id, ("data"::jsonb) ->> 'text' AS text FROM "messages"
      WHERE status = 'complete' AND (("data"::jsonb) ->> 'text') ILIKE ${pattern}
      ORDER BY updated_sequence DESC, id DESC LIMIT ${MESSAGE_SEARCH_SCAN}),
    hits AS (
      SELECT DISTINCT ON (thread_id) thread_id, text FROM matched
      ORDER BY thread_id, updated_sequence DESC, id DESC)
    SELECT t.id, t.thread_id, t.sort_key, t.run_ordinal, t.status, t.data, t.updated_sequence,
      substr(h.text, greatest(1, strpos(lower(h.text), lower(${query})) - ${EXCERPT_BEFORE}),
        ${EXCERPT_LENGTH})
    FROM hits h JOIN "threads" t ON t.id = h.thread_id
    WHERE ${clauses.join(" AND ")}
    ORDER BY t.active_at DESC, t.id DESC LIMIT ${param(filter.limit)}`;
  return toMessageThreadRows(await rows(sql, values));
}
