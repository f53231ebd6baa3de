import type { EventStore } from "@skein/db";
import { type PortRange, PreconditionFailedError } from "@skein/domain";

/** The claim every port choice holds (issue 35 claims), so two threads never pick one port. */
export const PORT_CLAIM = "thread-ports";

/**
 * Issue 26: the lowest port of `range` no open thread holds. A thread holds its port until it is
 * archived (or deleted); an archived thread's port is free for the next thread. Call it while
 * holding `PORT_CLAIM`, and record the port before letting go of the claim.
 */
export async function freePort(store: EventStore, range: PortRange): Promise<number> {
  const { data: rows } = await store.snapshot((q) => q.list("threads"));
  const held = new Set<number>();
  for (const row of rows) {
    const thread = row.data as {
      port?: number | null;
      archivedAt?: string | null;
      deletedAt?: string | null;
    } | null;
    if (thread?.port != null && !thread.archivedAt && !thread.deletedAt) held.add(thread.port);
  }
  for (let port = range.from; port <= range.to; port += 1) {
    if (!held.has(port)) return port;
  }
  throw new PreconditionFailedError(
    `every port from ${range.from} to ${range.to} is held by an open thread of this server; ` +
      "archive threads you are done with, or widen the project's port range",
  );
}
