"use client";
import { type ReactNode, useMemo } from "react";
import {
  type ChangeData,
  Decoration,
  Diff,
  getChangeKey,
  Hunk,
  type HunkData,
  parseDiff,
  tokenize,
} from "react-diff-view";
import { languageOfPath } from "../../lib/diff-language.ts";
import { highlightToHast } from "../../lib/highlight.ts";
import { hunkText, newLineOf } from "./hunk-text.ts";
import type { LineTarget } from "./line-comment.tsx";
import type { ReviewFile } from "./review-types.ts";
import { ScrollDiv } from "../common/scroll-box.tsx";

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

/** The hunk holding `change`, found by its key. */
function hunkOf(hunks: readonly HunkData[], change: ChangeData): HunkData | undefined {
  const key = getChangeKey(change);
  return hunks.find((h) => h.changes.some((c) => getChangeKey(c) === key));
}

/**
 * One file's patch as a unified or split diff, syntax-highlighted by its extension; with
 * `onRevertHunk`, each hunk is headed by a button that takes it back; with `onCommentLine`, a
 * click on a line's number opens a comment on that line (`comment` is drawn under it).
 */
export function FileDiff({
  file,
  viewType,
  onRevertHunk,
  onCommentLine,
  comment,
  disabled = false,
}: {
  file: ReviewFile;
  viewType: DiffViewType;
  onRevertHunk?: (hunk: number) => void;
  onCommentLine?: (target: LineTarget) => void;
  /** The open comment box: the change key it sits under, and the box. */
  comment?: { key: string; node: ReactNode } | null;
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
  const hunks = parsed.hunks;
  const gutterEvents = onCommentLine
    ? {
        onClick: ({ change }: { change: ChangeData | null }) => {
          if (!change) return;
          const hunk = hunkOf(hunks, change);
          onCommentLine({
            path: file.path,
            line: newLineOf(change),
            diffHunk: hunk ? hunkText(hunk) : "",
            key: getChangeKey(change),
          });
        },
      }
    : {};
  const widgets = comment ? { [comment.key]: comment.node } : {};
  return (
    <ScrollDiv className="review-diff" data-view={viewType} data-language={language ?? "text"}>
      <Diff
        viewType={viewType}
        diffType={parsed.type}
        hunks={hunks}
        tokens={tokens}
        gutterEvents={gutterEvents}
        widgets={widgets}
      >
        {(hunks) =>
          hunks.flatMap((hunk, index) => [
            ...(onRevertHunk || onCommentLine
              ? [
                  <Decoration key={`bar-${hunk.content}`} className="review-hunk-bar">
                    <span className="row">
                      {onRevertHunk && (
                        <button
                          type="button"
                          className="review-revert-hunk"
                          disabled={disabled}
                          onClick={() => onRevertHunk(index)}
                          aria-label={`Revert this hunk (${index + 1} of ${file.path})`}
                        >
                          Revert this hunk
                        </button>
                      )}
                      {onCommentLine && (
                        <button
                          type="button"
                          className="review-comment-hunk"
                          onClick={() => {
                            // Keyboard path to a comment: the hunk's first new line stands for it.
                            const first =
                              hunk.changes.find((c) => c.type === "insert") ?? hunk.changes[0];
                            if (!first) return;
                            onCommentLine({
                              path: file.path,
                              line: newLineOf(first),
                              diffHunk: hunkText(hunk),
                              key: getChangeKey(first),
                            });
                          }}
                          aria-label={`Comment on hunk ${index + 1} of ${file.path}`}
                        >
                          Comment
                        </button>
                      )}
                    </span>
                  </Decoration>,
                ]
              : []),
            <Hunk key={hunk.content} hunk={hunk} />,
          ])
        }
      </Diff>
    </ScrollDiv>
  );
}
