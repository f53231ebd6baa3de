/** A message excerpt split around the search's match, for a row one line wide. */
export type ExcerptParts = { before: string; match: string; after: string };

/** Characters kept before the match: enough to read it in context on a narrow row. */
const LEAD = 24;

/**
 * The server sends the message's text from up to 100 characters before the match; a sidebar row
 * shows a line, so this starts a few words before the match (an ellipsis where text was cut) and
 * folds whitespace. A text that no longer holds the query is shown from its start.
 */
export function excerptParts(text: string, query: string): ExcerptParts {
  const flat = text.replace(/\s+/g, " ");
  const at = query === "" ? -1 : flat.toLowerCase().indexOf(query.toLowerCase());
  if (at < 0) return { before: "", match: "", after: flat };
  let from = Math.max(0, at - LEAD);
  // Start at a word when the lead begins inside one.
  const space = flat.indexOf(" ", from);
  if (from > 0 && flat[from - 1] !== " " && space !== -1 && space < at) from = space + 1;
  return {
    before: `${from > 0 ? "…" : ""}${flat.slice(from, at)}`,
    match: flat.slice(at, at + query.length),
    after: flat.slice(at + query.length),
  };
}
