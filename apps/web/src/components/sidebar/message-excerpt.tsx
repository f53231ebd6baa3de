import type { ExcerptParts } from "../../lib/excerpt.ts";

/** Issue 29: the row's second line when a search found the thread by one of its messages. */
export function MessageExcerpt({ parts }: { parts: ExcerptParts }) {
  return (
    <span className="thread-row-excerpt" title={`${parts.before}${parts.match}${parts.after}`}>
      {parts.before}
      <mark>{parts.match}</mark>
      {parts.after}
    </span>
  );
}
