/**
 * Issue 29: matching messages a search looks at, newest first. A word said in every thread
 * costs the same as a rare one; past this many messages, older threads are found by title only.
 */
export const MESSAGE_SEARCH_SCAN = 5_000;

/** Characters of a message kept before the match (the excerpt is cut from there). */
export const EXCERPT_BEFORE = 100;
/** Characters of a message returned around a match at most. */
export const EXCERPT_LENGTH = 400;

/** Queries the trigram indexes can narrow: shorter ones would read every message. */
export function searchableInMessages(query: string): boolean {
  return [...query].length >= 3;
}

/**
 * The thread-list conditions of a message search (visibility, project, the cursor) on the
 * threads aliased `t`, with `param` naming each value in the dialect's placeholder syntax.
 */
export function pageClauses(
  filter: { visibility: string; projectId?: string; after?: { activeAt: string; id: string } },
  param: (value: string) => string,
): string[] {
  const clauses = [`t.visibility = ${param(filter.visibility)}`];
  if (filter.projectId !== undefined) clauses.push(`t.project_id = ${param(filter.projectId)}`);
  if (filter.after !== undefined) {
    const { activeAt, id } = filter.after;
    clauses.push(`(t.active_at, t.id) < (${param(activeAt)}, ${param(id)})`);
  }
  return clauses;
}
