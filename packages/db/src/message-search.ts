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
