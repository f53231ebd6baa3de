// Local copy of the projection contract from docs/design.md. @skein/domain will own these types;
// the lead switches this file to a re-export once it lands. Keep it byte-for-byte with the doc.

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
