import type { RunContent } from "../handoff-content.ts";
import type { BriefItems } from "./render-brief.ts";
import { extractFacts } from "./extract-facts.ts";

export type { BriefItems, RunNamer } from "./render-brief.ts";
export { renderBrief } from "./render-brief.ts";
export type * from "./brief-types.ts";

/** The brief's items for the covered runs, before budgeting (pure, deterministic). */
export function briefItems(contents: readonly RunContent[]): BriefItems {
  const facts = extractFacts(contents);
  const of = (kind: string) => facts.active.filter((fact) => fact.kind === kind);
  // A compaction run exchanged nothing with the person (its message is the `/compact` request).
  const last = [...contents]
    .reverse()
    .find((c) => !c.compacted && (c.userMessage !== null || c.assistantReply !== null));
  return {
    goal: facts.goal,
    decisions: of("decision"),
    constraints: of("constraint"),
    preferences: of("preference"),
    openTasks: of("task"),
    files: facts.files,
    errors: facts.errors,
    closed: facts.closed,
    lastExchange: last
      ? {
          run: { threadId: last.threadId, ordinal: last.ordinal },
          user: last.userMessage,
          assistant: last.assistantReply,
        }
      : null,
  };
}
