import type { EventStore, ProjectionRow } from "@skein/db";
import { threadRows } from "../../read-models/thread-pages.ts";

/** What follows some threads from start-up on (open pull requests, usage-limit waits). */
export type ThreadWatcher = { startFrom(row: ProjectionRow): void | Promise<void> };

/**
 * At start-up, one pass over the thread list hands each thread to the watchers that follow it.
 * Nothing indexes "has an open pull request" or "waits out a usage limit", so the pass reads
 * every active and archived thread: a page at a time (bounded memory), once for all watchers,
 * and after the server answers rather than before (on 100,000 threads, two whole-list reads
 * held the start back by seconds).
 */
export async function watchThreadsAtStart(
  store: Pick<EventStore, "snapshot">,
  watchers: readonly ThreadWatcher[],
  stopped: () => boolean,
): Promise<void> {
  for await (const row of threadRows(store, ["active", "archived"])) {
    if (stopped()) return;
    for (const watcher of watchers) await watcher.startFrom(row);
  }
}
