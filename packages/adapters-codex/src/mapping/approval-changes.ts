import type { RuntimeFileChange } from "@skein/domain/provider";

const linesOf = (text: string): string[] =>
  text === "" ? [] : text.replace(/\n$/, "").split("\n");

/**
 * B16: a Codex file change as an approval shows it, in the shape Claude's planned changes have.
 * Codex sends an added (or deleted) file's diff as the file's plain content, which a diff view
 * would draw as unchanged context: here every line becomes an added (or removed) one, as Claude's
 * Write does. An update is Codex's unified diff already and stays as it is.
 */
export function approvalChange(change: RuntimeFileChange): RuntimeFileChange {
  if (change.kind === "update" || change.diff === undefined) return change;
  const lines = linesOf(change.diff);
  const sign = change.kind === "add" ? "+" : "-";
  const { diff: _content, ...rest } = change;
  return {
    ...rest,
    ...(lines.length > 0 ? { diff: lines.map((line) => `${sign}${line}`).join("\n") } : {}),
    additions: change.kind === "add" ? lines.length : 0,
    deletions: change.kind === "delete" ? lines.length : 0,
  };
}

/** The legacy `applyPatchApproval` callback's own list of changes, keyed by path. */
export type LegacyFileChange =
  | { type: "add"; content: string }
  | { type: "delete"; content: string }
  | { type: "update"; unified_diff: string; move_path: string | null };

export function legacyPatchChanges(fileChanges: {
  [path: string]: LegacyFileChange | undefined;
}): RuntimeFileChange[] {
  const out: RuntimeFileChange[] = [];
  for (const [path, change] of Object.entries(fileChanges)) {
    if (!change) continue;
    const diff = change.type === "update" ? change.unified_diff : change.content;
    out.push(approvalChange({ path, kind: change.type, diff }));
  }
  return out;
}
