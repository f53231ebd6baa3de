/** A thread created without a title is called this until its first message names it. */
export const DEFAULT_THREAD_TITLE = "New thread";

const MAX_AUTO_TITLE = 60;

/**
 * A title from a first message: its first non-empty line, whitespace folded, cut at a word near
 * 60 characters. Null when the message has no words (attachments only).
 */
export function autoTitle(text: string): string | null {
  const line = text
    .split("\n")
    .map((l) => l.replace(/\s+/g, " ").trim())
    .find((l) => l.length > 0);
  if (!line) return null;
  if (line.length <= MAX_AUTO_TITLE) return line;
  const cut = line.slice(0, MAX_AUTO_TITLE);
  const space = cut.lastIndexOf(" ");
  return `${(space > MAX_AUTO_TITLE / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
