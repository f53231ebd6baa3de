"use client";
import { useMemo } from "react";
import { Decoration, Diff, Hunk, parseDiff, tokenize } from "react-diff-view";
import { languageOfPath } from "../../lib/diff-language.ts";
import { highlightToHast } from "../../lib/highlight.ts";
import type { ReviewFile } from "./review-types.ts";

export type DiffViewType = "unified" | "split";

type Refractor = Parameters<typeof tokenize>[1] extends infer O
  ? O extends { refractor: infer R }
    ? R
    : never
  : never;

/**
 * react-diff-view tokenizes through a refractor-shaped `highlight(text, language)` returning hast
 * children; lowlight (already the app's highlighter) returns the same hast, so it stands in.
 */
const lowlightAsRefractor = {
  highlight: (text: string, language: string) =>
    highlightToHast(text, language)?.children ?? [{ type: "text", value: text }],
} as unknown as Refractor;

/**
 * One file's patch as a unified or split diff, syntax-highlighted by its extension; with
 * `onRevertHunk`, each hunk is headed by a button that takes it back.
 */
export function FileDiff({
  file,
  viewType,
  onRevertHunk,
  disabled = false,
}: {
  file: ReviewFile;
  viewType: DiffViewType;
  onRevertHunk?: (hunk: number) => void;
  disabled?: boolean;
}) {
  const parsed = useMemo(() => (file.patch ? (parseDiff(file.patch)[0] ?? null) : null), [file]);
  const language = languageOfPath(file.path);
  const tokens = useMemo(() => {
    if (!parsed || parsed.hunks.length === 0) return undefined;
    try {
      return language
        ? tokenize(parsed.hunks, { highlight: true, refractor: lowlightAsRefractor, language })
        : tokenize(parsed.hunks);
    } catch {
      // A grammar choking on a fragment must not hide the diff: show it plain.
      return undefined;
    }
  }, [parsed, language]);

  if (file.truncated) {
    return (
      <p className="muted review-note">
        This file's diff is too large to show here (+{file.additions} −{file.deletions}).
      </p>
    );
  }
  if (file.binary) return <p className="muted review-note">Binary file changed.</p>;
  if (!parsed || parsed.hunks.length === 0) {
    return (
      <p className="muted review-note">
        {file.status === "renamed" ? "Renamed without changes." : "No text changes."}
      </p>
    );
  }
  return (
    <div className="review-diff" data-view={viewType} data-language={language ?? "text"}>
      <Diff viewType={viewType} diffType={parsed.type} hunks={parsed.hunks} tokens={tokens}>
        {(hunks) =>
          hunks.flatMap((hunk, index) => [
            ...(onRevertHunk
              ? [
                  <Decoration key={`revert-${hunk.content}`} className="review-hunk-bar">
                    <button
                      type="button"
                      className="review-revert-hunk"
                      disabled={disabled}
                      onClick={() => onRevertHunk(index)}
                      aria-label={`Revert hunk ${index + 1} of ${file.path}`}
                    >
                      Revert this hunk
                    </button>
                  </Decoration>,
                ]
              : []),
            <Hunk key={hunk.content} hunk={hunk} />,
          ])
        }
      </Diff>
    </div>
  );
}
