import type { HandoffBuild } from "./handoff-types.ts";
import { formatRunRanges } from "./ordinal-ranges.ts";
import { numberedRanges, type RunNumbering } from "./run-numbers.ts";
import { estimateTokens } from "./token-budget.ts";

/**
 * Issue 25 item 3: what the source provider is asked on its side turn (a native fork of its own
 * thread, so the source is untouched), and how its answer is judged. The answer must be the
 * structured handoff, within the budget; anything else falls back to Skein's own build.
 */
export function providerSummaryPrompt(build: HandoffBuild, numbering: RunNumbering = {}): string {
  const runs = coveredTurns(build, numbering);
  const target = build.payload.targetProvider ?? "another agent";
  return [
    `Write a handoff of this conversation (${formatRunRanges(runs)}) for ${target}, which continues it without seeing it.`,
    "Use exactly these sections, in this order, as markdown headings:",
    "## Goal",
    "## State of the code (files changed, with their latest state; uncommitted changes included)",
    "## Decisions in force",
    "## Constraints in force",
    "## Open tasks",
    "## Recent errors",
    "## No longer current (reversed decisions, closed tasks: say so)",
    "## Last exchange",
    'Cite the run each item comes from as "(run N)". Leave out anything that was reversed or closed from the current sections.',
    `Stay under ${Math.floor(build.tokens.budget * 0.75)} tokens. Answer with the handoff only; do not run tools or change files.`,
  ].join("\n");
}

export type ProviderSummaryCheck =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly reason: string };

const REQUIRED = ["## Goal", "## Decisions in force", "## Open tasks"];

/** Whether a provider's answer can stand as the handoff text. */
export function checkProviderSummary(
  text: string,
  build: HandoffBuild,
  charsPerToken = 4,
): ProviderSummaryCheck {
  const trimmed = text.trim();
  if (trimmed.length === 0) return { ok: false, reason: "the provider wrote nothing" };
  const tokens = estimateTokens(trimmed, charsPerToken);
  if (tokens > build.tokens.budget) {
    return {
      ok: false,
      reason: `the provider's summary is ${tokens} tokens, over the ${build.tokens.budget}-token budget`,
    };
  }
  const missing = REQUIRED.filter((heading) => !trimmed.includes(heading));
  if (missing.length > 0) {
    return { ok: false, reason: `the provider's summary lacks ${missing.join(", ")}` };
  }
  return { ok: true, text: trimmed };
}

/** The handoff text around a provider's summary: who wrote it, and the history tool. */
export function providerSummaryText(
  summary: string,
  provider: string,
  build: HandoffBuild,
  numbering: RunNumbering = {},
): string {
  const runs = coveredTurns(build, numbering);
  const lines = [
    "# Context handoff",
    `Written by ${provider} from its own thread (${formatRunRanges(runs)}) at Skein's request; the new user message follows the handoff.`,
  ];
  if (build.payload.historyTool) {
    lines.push(
      'The whole covered history stays available through the skein_history tool ({"op":"search","query":"..."}, {"op":"read","run":N}, {"op":"files"}).',
    );
  }
  return `${lines.join("\n")}\n\n${summary}`;
}

/** The covered runs by the numbers a person reads (E3/B16), as Skein's own handoff text says. */
function coveredTurns(build: HandoffBuild, numbering: RunNumbering) {
  return build.payload.coverage.flatMap((c) => numberedRanges(numbering, c.threadId, c.runs));
}
