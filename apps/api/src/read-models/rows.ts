import type { ProjectionQuery, ProjectionRow as StoredRow } from "@skein/db";
import type { ProjectionRow, ProjectionTable } from "@skein/domain";

/**
 * Projection rows as the domain types them. The store keeps `data` as JSON it does not interpret;
 * every row was written by the domain's projector for that table, so the cast restores the type
 * the projector wrote rather than guessing one.
 */
export function typedRows<T>(rows: readonly StoredRow[]): readonly ProjectionRow<T>[] {
  return rows as readonly ProjectionRow<T>[];
}

export async function listRows<T>(
  query: ProjectionQuery,
  table: ProjectionTable,
  threadId: string,
): Promise<readonly ProjectionRow<T>[]> {
  return typedRows<T>(await query.list(table, { threadId }));
}

export async function getData<T>(
  query: ProjectionQuery,
  table: ProjectionTable,
  id: string,
): Promise<T | undefined> {
  const row = await query.get(table, id);
  return row === undefined ? undefined : (row.data as T);
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
