/**
 * The `@` mention being typed at the caret: the word after an `@` that starts the text or follows
 * a space, up to the caret. `null` when the caret is not in one (an e-mail address is not).
 */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: match.index + (match[1] ?? "").length, query: match[2] ?? "" };
}

/** The text with the mention at `start` (up to `caret`) replaced by `@path `, and the new caret. */
export function insertMention(
  text: string,
  start: number,
  caret: number,
  path: string,
): { text: string; caret: number } {
  const inserted = `@${path} `;
  return {
    text: text.slice(0, start) + inserted + text.slice(caret).replace(/^ /, ""),
    caret: start + inserted.length,
  };
}
