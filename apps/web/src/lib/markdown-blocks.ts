const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])(?:\s|$)/;

/**
 * Splits Markdown into top-level blocks that parse the same alone as together, so a streaming
 * reply re-parses only its last block on each update. A cut is made only at a blank line that
 * is followed by a line starting at column 0 that opens a new block of its own: never inside a
 * fenced code block, before an indented continuation, or between the items of one list.
 * Concatenated, the blocks give the text back exactly.
 */
export function markdownBlocks(text: string): string[] {
  const lines = text.split("\n");
  const blocks: string[] = [];
  let start = 0;
  let fence: string | null = null;
  let afterBlank = false;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      continue;
    }
    const blank = line.trim() === "";
    const opensBlock = !blank && !/^\s/.test(line) && !LIST_ITEM.test(line);
    if (afterBlank && opensBlock && i > start) {
      blocks.push(`${lines.slice(start, i).join("\n")}\n`);
      start = i;
    }
    if (marker) fence = marker;
    afterBlank = blank;
  }
  blocks.push(lines.slice(start).join("\n"));
  return blocks;
}
