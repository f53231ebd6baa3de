import type { ChangeData, HunkData } from "react-diff-view";

const PREFIX = { insert: "+", delete: "-", normal: " " } as const;

/** A hunk as unified-diff text (header and prefixed lines), the way a PR review comment quotes it. */
export function hunkText(hunk: HunkData): string {
  return [hunk.content, ...hunk.changes.map((c) => `${PREFIX[c.type]}${c.content}`)].join("\n");
}

/** The line a change stands on in the new file; null for a deleted line. */
export function newLineOf(change: ChangeData): number | null {
  if (change.type === "insert") return change.lineNumber;
  if (change.type === "normal") return change.newLineNumber;
  return null;
}
