import { briefItems, renderBrief } from "./brief/index.ts";
import { buildHandoff } from "./build-handoff.ts";
import { collectRunContents } from "./handoff-content.ts";
import type { BuildHandoffInput, HandoffPayload } from "./handoff-types.ts";
import { resolveBudget } from "./token-budget.ts";

/** A subagent's report may take this share of the budget besides its answer. */
const REPORT_SHARE = 0.25;

/**
 * T9 through the handoff builder (issue 25 item 5): what a parent's delegate call receives. The
 * child's answer, verbatim, then, only when the child's runs left any, the brief's work sections
 * (files changed with their latest diff, failed commands not fixed, open tasks, decisions and
 * constraints the child's agent stated), each citing its run. The payload is the builder's, so the
 * recorded handoff keeps the structured brief next to the exact text the parent got.
 */
export function buildSubagentResult(
  input: Omit<BuildHandoffInput, "strategy" | "manualText" | "newMessage"> & { answer: string },
): { text: string; payload: HandoffPayload } {
  const { answer, ...rest } = input;
  const budget = resolveBudget(input.budget);
  const items = briefItems(collectRunContents(input.selection, input.runs, input.turnItems));
  // The child's "person" is the parent's request: echoing it back tells the parent nothing.
  const own = <T extends { by: string }>(list: readonly T[]) =>
    list.filter((f) => f.by !== "person");
  const work = {
    ...items,
    decisions: own(items.decisions),
    constraints: own(items.constraints),
    openTasks: own(items.openTasks),
    goal: [],
    preferences: [],
    closed: [],
    lastExchange: null,
  };
  const hasWork =
    work.files.length +
      work.errors.length +
      work.openTasks.length +
      work.decisions.length +
      work.constraints.length >
    0;
  const report = hasWork
    ? renderBrief(
        work,
        Math.floor(budget.maxTokens * REPORT_SHARE),
        budget.charsPerToken,
        (run) => `run ${run.ordinal}`,
        false,
      ).text
    : "";
  const text = report ? `${answer}\n\n---\nWhat the subagent's run left:\n${report}` : answer;
  const built = buildHandoff({ ...rest, strategy: "manual_context", manualText: text });
  const full = buildHandoff({ ...rest, strategy: "full_thread_summary" });
  // The text is the child's; the structure is the builder's (its brief of the child's runs).
  return {
    text,
    payload: { ...built.payload, ...(full.payload.brief ? { brief: full.payload.brief } : {}) },
  };
}
