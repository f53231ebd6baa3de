import type { EventStore, ProjectionRow } from "@skein/db";

/** Thread rows read per snapshot: a page's JSON is parsed and let go before the next is read. */
const PAGE = 500;

type Visibility = "active" | "archived" | "deleted";

/**
 * Every thread row of the given visibilities, a page at a time through the listing index
 * (newest activity first). Sweeps over the thread list (the purge of deleted threads, the pull
 * request watch) use it instead of reading every row of every thread into memory at once: on a
 * store of 100,000 threads that read held ~100 MB of parsed rows and delayed the start by
 * seconds. Rows changing meanwhile are seen at most once per visibility (the page cursor only
 * moves forward).
 */
export async function* threadRows(
  store: Pick<EventStore, "snapshot">,
  visibilities: readonly Visibility[],
  projectId?: string,
): AsyncGenerator<ProjectionRow> {
  for (const visibility of visibilities) {
    let after: { activeAt: string; id: string } | undefined;
    for (;;) {
      const { data: rows } = await store.snapshot((q) =>
        q.threadPage({
          visibility,
          limit: PAGE,
          ...(projectId ? { projectId } : {}),
          ...(after ? { after } : {}),
        }),
      );
      yield* rows;
      const last = rows.at(-1);
      if (rows.length < PAGE || last === undefined) break;
      after = { activeAt: activeAtOf(last), id: last.id };
    }
  }
}

/** The listing's activity time as the store keeps it (the shell's `lastActivityAt`). */
function activeAtOf(row: ProjectionRow): string {
  return (row.data as { lastActivityAt?: string } | null)?.lastActivityAt ?? "";
}
