import { type ProjectionQuery, searchableInMessages } from "@skein/db";
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
 * paging run in the database on the listing index, so a page costs what it holds (B7); a search
 * of three characters or more also finds threads by their messages' text (issue 29).
 */
export async function readShells(
  query: ProjectionQuery,
  input: ShellPageInput = {},
): Promise<ShellPage> {
  const limit = Math.min(Math.max(input.limit ?? DEFAULT_SHELL_PAGE, 1), MAX_SHELL_PAGE);
  const text = input.query?.trim() ?? "";
  const filter = {
    visibility: input.archived === true ? ("archived" as const) : ("active" as const),
    ...(input.projectId === undefined ? {} : { projectId: input.projectId }),
    ...(input.cursor === undefined ? {} : { after: decodeCursor(input.cursor) }),
    limit: limit + 1,
  };
  const byTitle = typedRows<ThreadShell>(
    await query.threadPage({ ...filter, ...(text === "" ? {} : { query: text }) }),
  ).map((row) => row.data);
  // Issue 29: a search also finds threads by their messages. Both lists are in page order after
  // the same cursor, so their merge's first `limit + 1` rows are the page's.
  const byMessage = searchableInMessages(text)
    ? await query.messageThreadPage({ ...filter, query: text })
    : [];
  const excerpts: Record<string, string> = {};
  const found = new Map<string, ThreadShell>(byTitle.map((shell) => [shell.id, shell]));
  for (const { row, excerpt } of byMessage) {
    if (found.has(row.id)) continue;
    found.set(row.id, row.data as ThreadShell);
    excerpts[row.id] = excerpt;
  }
  const rows = byMessage.length === 0 ? byTitle : [...found.values()].sort(pageOrder);
  const threads = rows.slice(0, limit);
  const last = threads.at(-1);
  const shown = new Set<string>(threads.map((shell) => shell.id));
  for (const id of Object.keys(excerpts)) if (!shown.has(id)) delete excerpts[id];
  return {
    threads,
    nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last) : null,
    ...(text === "" ? {} : { excerpts }),
  };
}

/** The list's order: most recent activity first, ties by id (descending), as the store pages. */
function pageOrder(a: ThreadShell, b: ThreadShell): number {
  if (a.lastActivityAt !== b.lastActivityAt) return a.lastActivityAt < b.lastActivityAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
