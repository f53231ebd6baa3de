import type { RuntimeFileChange } from "@skein/domain/provider";

type Kind = RuntimeFileChange["kind"];

/** A text's lines, without the empty one a final newline would leave. */
const linesOf = (text: string): string[] =>
  text === "" ? [] : text.replace(/\n$/, "").split("\n");

/** Added and removed lines of a unified diff; its `---`/`+++` file headers are not lines. */
function countUnified(diff: string): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const line of linesOf(diff)) {
    if (line.startsWith("+++") || line.startsWith("---")) continue;
    if (line.startsWith("+")) additions += 1;
    else if (line.startsWith("-")) deletions += 1;
  }
  return { additions, deletions };
}

/**
 * B16: a Codex file change as Skein shows it (tool card and approval), in the shape Claude's
 * changes have. Codex sends an added (or deleted) file's diff as the file's plain content, which
 * a diff view would draw as unchanged context: every line becomes an added (or removed) one, as
 * Claude's Write does. An update is Codex's unified diff already and is kept as it is.
 */
export function codexFileChange(path: string, kind: Kind, diff: string): RuntimeFileChange {
  if (kind === "update") return { path, kind, diff, ...countUnified(diff) };
  const lines = linesOf(diff);
  const sign = kind === "add" ? "+" : "-";
  return {
    path,
    kind,
    ...(lines.length > 0 ? { diff: lines.map((line) => `${sign}${line}`).join("\n") } : {}),
    additions: kind === "add" ? lines.length : 0,
    deletions: kind === "delete" ? lines.length : 0,
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
    out.push(codexFileChange(path, change.type, diff));
  }
  return out;
}
