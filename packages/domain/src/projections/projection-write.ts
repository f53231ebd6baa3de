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
