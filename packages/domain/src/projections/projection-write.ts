/** The shared row shape of every projection table (docs/design.md, "Projection tables"). */
export type ProjectionTable =
  | "projects"
  | "threads"
  | "runs"
  | "attempts"
  | "nodes"
  | "messages"
  | "plans"
  | "turn_items"
  | "transfers"
  | "handoffs"
  | "provider_sessions"
  | "provider_threads"
  | "provider_turns"
  | "requests"
  | "checkpoints";

export const PROJECTION_TABLES: readonly ProjectionTable[] = [
  "projects",
  "threads",
  "runs",
  "attempts",
  "nodes",
  "messages",
  "plans",
  "turn_items",
  "transfers",
  "handoffs",
  "provider_sessions",
  "provider_threads",
  "provider_turns",
  "requests",
  "checkpoints",
];

export type ProjectionWrite =
  | {
      op: "put";
      table: ProjectionTable;
      id: string;
      threadId: string | null;
      sortKey: number;
      runOrdinal: number | null;
      status: string | null;
      data: unknown;
    }
  | { op: "delete"; table: ProjectionTable; id: string };

export type ProjectionPut = Extract<ProjectionWrite, { op: "put" }>;

/** A stored row as the db returns it; `data` is typed by the reader that knows the table. */
export type ProjectionRow<T = unknown> = {
  id: string;
  threadId: string | null;
  sortKey: number;
  runOrdinal: number | null;
  status: string | null;
  data: T;
};

/**
 * The writes of one append, each row once: a row's last write holds everything the earlier ones
 * did (a put is the whole row), so an append of several events writes and serializes every row
 * it touches once, not once per event.
 */
export function lastWritePerRow(writes: readonly ProjectionWrite[]): ProjectionWrite[] {
  if (writes.length < 2) return [...writes];
  const last = new Map<string, ProjectionWrite>();
  for (const write of writes) {
    const key = `${write.table}\u0000${write.id}`;
    // Delete first: a row written again goes to the end, in the order of its last write.
    last.delete(key);
    last.set(key, write);
  }
  return [...last.values()];
}
