import type { ProjectionRow } from "./event-store.ts";

/** The columns both readers select, in this order (rows come back as arrays, not objects). */
export const PROJECTION_COLUMNS =
  "id, thread_id, sort_key, run_ordinal, status, data, updated_sequence";

/** A projection row as read in `PROJECTION_COLUMNS` order. */
export type RawProjectionRow = [
  id: string,
  threadId: string | null,
  sortKey: number,
  runOrdinal: number | null,
  status: string | null,
  data: string,
  updatedSequence: number,
];

export function toProjectionRow(row: RawProjectionRow): ProjectionRow {
  return {
    id: row[0],
    threadId: row[1],
    sortKey: row[2],
    runOrdinal: row[3],
    status: row[4],
    data: JSON.parse(row[5]),
    updatedSequence: row[6],
  };
}

/** A whole result set; a plain loop, as the hot reads (sidebar pages) map thousands of rows. */
export function toProjectionRows(rows: readonly RawProjectionRow[]): ProjectionRow[] {
  const out: ProjectionRow[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i += 1) out[i] = toProjectionRow(rows[i] as RawProjectionRow);
  return out;
}
