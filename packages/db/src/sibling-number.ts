/** B16: a sibling number has one to nine digits ("stem (2)"); longer ones are not counted. */
export const SIBLING_DIGITS = 9;

/**
 * B16: which sibling `title` is among the titles numbered from `stem`: 1 for the stem itself, n
 * for "stem (n)", null for any other title. The SQL readers compute the same in their statements.
 */
export function siblingNumber(title: string, stem: string): number | null {
  if (title === stem) return 1;
  const prefix = `${stem} (`;
  if (!title.startsWith(prefix) || !title.endsWith(")")) return null;
  const digits = title.slice(prefix.length, -1);
  if (digits.length === 0 || digits.length > SIBLING_DIGITS || !/^\d+$/.test(digits)) return null;
  return Number(digits);
}

/** The highest `siblingNumber` among `titles`, 0 when none is numbered from `stem`. */
export function highestSiblingOf(titles: Iterable<string>, stem: string): number {
  let highest = 0;
  for (const title of titles) highest = Math.max(highest, siblingNumber(title, stem) ?? 0);
  return highest;
}
