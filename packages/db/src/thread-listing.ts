/**
 * B7: the columns the thread list is read by (migration 0005), taken from a `threads` row's data
 * as SQLite's `json_extract` takes them, so rows written with them and rows written before (by
 * the 0005/0012 triggers) read alike.
 */
export type ThreadListing = {
  projectId: ListingValue;
  title: ListingValue;
  activeAt: ListingValue;
  visibility: "active" | "archived" | "deleted";
  /** Issue 26: the port the thread holds (migration 0014), a whole number or null. */
  port: number | null;
  /** The thread a sub-agent's child thread works for (migration 0015), or null. */
  subagentOf: string | null;
};

type ListingValue = string | number | null;

export function threadListing(data: unknown): ThreadListing {
  const shell = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
  return {
    projectId: extracted(shell.projectId),
    title: extracted(shell.title),
    activeAt: extracted(shell.lastActivityAt),
    visibility:
      extracted(shell.deletedAt) !== null
        ? "deleted"
        : extracted(shell.archivedAt) !== null
          ? "archived"
          : "active",
    port: Number.isInteger(shell.port) ? (shell.port as number) : null,
    subagentOf: subagentParentOf(shell.lineage),
  };
}

/** A lineage's parent when the thread is a sub-agent's child (a fork's or promoted thread's: null). */
function subagentParentOf(lineage: unknown): string | null {
  if (typeof lineage !== "object" || lineage === null) return null;
  const { parentThreadId, relationshipToParent } = lineage as Record<string, unknown>;
  return relationshipToParent === "subagent" && typeof parentThreadId === "string"
    ? parentThreadId
    : null;
}

/** A member as `json_extract` returns it: JSON null or absent is NULL, true and false are 1 and 0, objects their JSON text. */
function extracted(value: unknown): ListingValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" || typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  return JSON.stringify(value);
}
