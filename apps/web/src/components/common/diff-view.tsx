import { ScrollPre } from "./scroll-box.tsx";

/**
 * A unified diff, line by line, coloured by its prefix. Without a diff string, the old and new
 * text are shown as removed and added blocks (the provider sent a replacement, not a patch).
 */
export function DiffView({
  diff,
  oldText,
  newText,
  label,
}: {
  diff?: string | undefined;
  oldText?: string | undefined;
  newText?: string | undefined;
  label: string;
}) {
  const lines =
    diff !== undefined && diff !== ""
      ? diff.replace(/\n$/, "").split("\n")
      : [
          ...(oldText
            ? oldText
                .replace(/\n$/, "")
                .split("\n")
                .map((l) => `-${l}`)
            : []),
          ...(newText
            ? newText
                .replace(/\n$/, "")
                .split("\n")
                .map((l) => `+${l}`)
            : []),
        ];
  if (lines.length === 0) return <p className="muted">No diff recorded.</p>;
  return (
    <ScrollPre className="diff" data-label={label}>
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: diff lines are positional and repeat
        <span key={i} className={`diff-line ${lineClass(line)}`}>
          {line}
          {"\n"}
        </span>
      ))}
    </ScrollPre>
  );
}

function lineClass(line: string): string {
  if (line.startsWith("+++") || line.startsWith("---")) return "diff-file";
  if (line.startsWith("@@")) return "diff-hunk";
  if (line.startsWith("+")) return "diff-add";
  if (line.startsWith("-")) return "diff-del";
  return "diff-ctx";
}
