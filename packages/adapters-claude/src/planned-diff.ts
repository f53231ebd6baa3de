import type { RuntimeFileChange } from "@skein/domain/provider";

type Planned = Pick<RuntimeFileChange, "diff" | "additions" | "deletions">;

const linesOf = (text: string): string[] => text.replace(/\n$/, "").split("\n");

function replacement(oldText: string, newText: string, header: string | null): Planned {
  const removed = oldText === "" ? [] : linesOf(oldText);
  const added = newText === "" ? [] : linesOf(newText);
  return {
    diff: [
      ...(header ? [header] : []),
      ...removed.map((l) => `-${l}`),
      ...added.map((l) => `+${l}`),
    ].join("\n"),
    additions: added.length,
    deletions: removed.length,
  };
}

const text = (input: Record<string, unknown>, key: string): string | null =>
  typeof input[key] === "string" ? (input[key] as string) : null;

/**
 * B16: what a file tool is about to do, before it runs (an approval shows it): a Write's whole
 * content, an Edit's or MultiEdit's replaced text as removed and added lines. The line numbers
 * are not known until the tool has run (its result carries the real patch); null when the input
 * says nothing that can be shown.
 */
export function plannedDiff(toolName: string, input: Record<string, unknown>): Planned | null {
  if (toolName === "Write") {
    const content = text(input, "content");
    return content === null ? null : replacement("", content, null);
  }
  if (toolName === "Edit") {
    const oldText = text(input, "old_string");
    const newText = text(input, "new_string");
    return oldText === null || newText === null ? null : replacement(oldText, newText, null);
  }
  if (toolName === "MultiEdit" && Array.isArray(input.edits)) {
    const edits = (input.edits as unknown[]).filter(
      (e): e is Record<string, unknown> => typeof e === "object" && e !== null,
    );
    const parts = edits.map((edit, i) =>
      replacement(
        text(edit, "old_string") ?? "",
        text(edit, "new_string") ?? "",
        edits.length > 1 ? `@@ edit ${i + 1} of ${edits.length} @@` : null,
      ),
    );
    if (parts.length === 0) return null;
    return {
      diff: parts.map((p) => p.diff).join("\n"),
      additions: parts.reduce((n, p) => n + (p.additions ?? 0), 0),
      deletions: parts.reduce((n, p) => n + (p.deletions ?? 0), 0),
    };
  }
  return null;
}
