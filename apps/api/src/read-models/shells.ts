import type { ProjectionQuery } from "@skein/db";
import { type ThreadShell, ValidationError } from "@skein/domain";
import { typedRows } from "./rows.ts";
import type { ShellPage, ShellPageInput } from "@skein/contract";
import { MAX_SHELL_PAGE } from "@skein/contract/limits";

/** Defined by the contract (the router's output types); re-exported for the read side. */
export type { ShellPage, ShellPageInput };

/** Rows per page when the caller names no size (the contract's MAX_SHELL_PAGE caps it). */
export const DEFAULT_SHELL_PAGE = 100;

// The cursor is the last row's place in the order: its lastActivityAt and id.
function encodeCursor(shell: ThreadShell): string {
  return Buffer.from(JSON.stringify([shell.lastActivityAt, shell.id])).toString("base64url");
}

function decodeCursor(cursor: string): { activeAt: string; id: string } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === "string" &&
      typeof parsed[1] === "string"
    ) {
      return { activeAt: parsed[0], id: parsed[1] };
    }
  } catch {
    // Falls through to the typed error.
  }
  throw new ValidationError("cursor: not a cursor from thread.shells", [
    { path: "cursor", message: "not a cursor from thread.shells" },
  ]);
}

/**
 * P1, one page: most recently active first (ties by id), deleted threads left out, archived ones
 * too unless `archived` asks for the archived list (then only those). Filtering, search and
 * paging run in the database on the listing index, so a page costs what it holds (B7).
 */
export async function readShells(
  query: ProjectionQuery,
  input: ShellPageInput = {},
): Promise<ShellPage> {
  const limit = Math.min(Math.max(input.limit ?? DEFAULT_SHELL_PAGE, 1), MAX_SHELL_PAGE);
  const rows = typedRows<ThreadShell>(
    await query.threadPage({
      visibility: input.archived === true ? "archived" : "active",
      ...(input.projectId === undefined ? {} : { projectId: input.projectId }),
      ...(input.query === undefined || input.query.trim() === ""
        ? {}
        : { query: input.query.trim() }),
      ...(input.cursor === undefined ? {} : { after: decodeCursor(input.cursor) }),
      limit: limit + 1,
    }),
  );
  const threads = rows.slice(0, limit).map((row) => row.data);
  const last = threads.at(-1);
  return {
    threads,
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last) : null,
  };
}
