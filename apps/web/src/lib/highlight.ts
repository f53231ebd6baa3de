import { common, createLowlight } from "lowlight";

/**
 * Syntax highlighting by highlight.js (through lowlight, which returns a hast tree that React
 * renders — never an HTML string). Synchronous, so a streaming reply is highlighted as it grows.
 * shiki was tried first: its packed-token path merged whole line tails into one colour on this
 * Node (shiki 1, 3 and 4 alike), which a unit test here would not let through.
 */
const lowlight = createLowlight(common);

/** Past this size a block stays plain: highlighting it would stall the page for little gain. */
const MAX_HIGHLIGHT_CHARS = 100_000;

export type HighlightTree = ReturnType<typeof lowlight.highlight>;

/** The registered language for a fence's info string, or null when it is not one we highlight. */
export function grammarFor(lang: string | null | undefined): string | null {
  if (!lang) return null;
  const key = lang.trim().toLowerCase();
  return key !== "" && lowlight.registered(key) ? key : null;
}

/** Highlighted tokens as a hast tree, or null (unknown language, or too big to be worth it). */
export function highlightToHast(code: string, lang: string | null): HighlightTree | null {
  const name = grammarFor(lang);
  if (name === null || code.length > MAX_HIGHLIGHT_CHARS) return null;
  return lowlight.highlight(name, code);
}
