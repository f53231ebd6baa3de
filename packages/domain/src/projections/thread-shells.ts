import type { ProjectionRow } from "./projection-write.ts";
import type { ThreadShell } from "./thread-shell.ts";

/** P1: the sidebar, most recently active first. */
export function assembleThreadShells(
  rows: readonly ProjectionRow<ThreadShell>[],
  options: { includeArchived?: boolean } = {},
): ThreadShell[] {
  const shells = rows
    .map((row) => row.data)
    .filter((shell) => !shell.deletedAt && (options.includeArchived || !shell.archivedAt));
  return shells.sort(
    (a, b) => compareText(b.lastActivityAt, a.lastActivityAt) || compareText(a.id, b.id),
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
