import { estimateTokens, truncateMiddle } from "../token-budget.ts";
import type {
  BriefError,
  BriefExchange,
  BriefFact,
  BriefFile,
  BriefSection,
  HandoffBrief,
  RunRef,
} from "./brief-types.ts";
import { BRIEF_SECTIONS } from "./brief-types.ts";

/** How runs are named in text: "run 12", or "run 12 of thread 2" when several threads are covered. */
export type RunNamer = (run: RunRef) => string;

const MAX_EXCHANGE_CHARS = 3_000;

const TITLES: Record<BriefSection, string> = {
  goal: "## Goal",
  decisions: "## Decisions in force",
  constraints: "## Constraints in force",
  preferences: "## Preferences",
  openTasks: "## Open tasks",
  files: "## State of the code (files changed in the covered runs; latest state only)",
  errors: "## Recent errors (failed and not succeeded since)",
  closed: "## No longer current (closed or reversed: do not act on these)",
};

function who(fact: BriefFact): string {
  if (fact.by === "todo") return `todo list, ${fact.status ?? "pending"}`;
  return fact.by === "person" ? "the person" : "agent";
}

function factLine(fact: BriefFact, name: RunNamer): string {
  return `- ${fact.text} (${name(fact.run)}, ${who(fact)})`;
}

function closedLine(fact: BriefFact, name: RunNamer): string {
  const short = truncateMiddle(fact.text, 200) ?? fact.text.slice(0, 200);
  const by = fact.closedBy ? `closed in ${name(fact.closedBy)}` : "closed";
  return `- ${fact.kind}: ${short} (${name(fact.run)}; ${by})`;
}

/** Issue 25 item 2: the title of a net diff says between which points, uncommitted included. */
function netTitle(span: NonNullable<BriefItems["netDiff"]>, name: RunNamer, tool: boolean): string {
  const from = span.from ? `the end of ${name(span.from)}` : "the thread's start";
  const to = span.to ? `the end of ${name(span.to)}` : "the source point";
  const rest = tool ? "; each run's own changes: skein_history files" : "";
  return `## State of the code (net diff from ${from} to ${to}, uncommitted changes included${rest})`;
}

function fileLines(file: BriefFile, name: RunNamer, withDiff: boolean): string[] {
  const counts =
    file.additions === null && file.deletions === null
      ? ""
      : ` +${file.additions ?? 0} -${file.deletions ?? 0}`;
  const times = file.changes === 1 ? "1 change" : `${file.changes} changes`;
  const where = file.lastRun
    ? `${times}, last in ${name(file.lastRun)}`
    : "changed outside the covered runs";
  const head = `- ${file.fileName}${counts} (${where})`;
  if (!withDiff || file.latestDiff === null) return [head];
  const label = file.net ? "  net diff:" : "  latest change:";
  return [head, label, ...file.latestDiff.split("\n").map((l) => `    ${l}`)];
}

function errorLines(error: BriefError, name: RunNamer): string[] {
  const outcome = error.exitCode !== null ? `exit ${error.exitCode}` : "failed";
  const head = `- \`${error.command}\` → ${outcome} (${name(error.run)})`;
  if (error.output === null) return [head];
  return [head, ...error.output.split("\n").map((l) => `    ${l}`)];
}

function exchangeLines(exchange: BriefExchange, name: RunNamer): string[] {
  const cut = (text: string) => truncateMiddle(text, MAX_EXCHANGE_CHARS) ?? text;
  const lines = [`## Last exchange (${name(exchange.run)}, verbatim)`];
  if (exchange.user !== null) lines.push(`[the person] ${cut(exchange.user)}`);
  if (exchange.assistant !== null) lines.push(`[agent] ${cut(exchange.assistant)}`);
  return lines;
}

/** Items per section, newest last, before budgeting. */
export type BriefItems = Omit<HandoffBrief, "left">;

/** How many of the newest items of each list the text shows; file diffs shown for the newest few. */
type Shown = Record<BriefSection, number> & { diffs: number };

function render(items: BriefItems, shown: Shown, name: RunNamer, historyTool: boolean): string {
  const lines: string[] = [];
  const newest = <T>(list: readonly T[], n: number) => list.slice(Math.max(0, list.length - n));
  const more = (section: BriefSection, total: number) => {
    const hidden = total - shown[section];
    if (hidden <= 0) return;
    const where = historyTool ? ": search them with skein_history" : "";
    lines.push(
      `- (+${hidden} older ${hidden === 1 ? "item" : "items"} left out for length${where})`,
    );
  };
  const factSection = (section: BriefSection, list: readonly BriefFact[]) => {
    if (list.length === 0) return;
    lines.push(TITLES[section]);
    for (const fact of newest(list, shown[section])) lines.push(factLine(fact, name));
    more(section, list.length);
  };
  factSection("goal", items.goal);
  if (items.files.length > 0) {
    lines.push(items.netDiff ? netTitle(items.netDiff, name, historyTool) : TITLES.files);
    const files = newest(items.files, shown.files);
    files.forEach((file, i) => {
      lines.push(...fileLines(file, name, i >= files.length - shown.diffs));
    });
    more("files", items.files.length);
  }
  factSection("decisions", items.decisions);
  factSection("constraints", items.constraints);
  factSection("preferences", items.preferences);
  factSection("openTasks", items.openTasks);
  if (items.errors.length > 0) {
    lines.push(TITLES.errors);
    for (const error of newest(items.errors, shown.errors)) lines.push(...errorLines(error, name));
    more("errors", items.errors.length);
  }
  if (items.closed.length > 0) {
    lines.push(TITLES.closed);
    for (const fact of newest(items.closed, shown.closed)) lines.push(closedLine(fact, name));
    more("closed", items.closed.length);
  }
  if (items.lastExchange !== null) lines.push(...exchangeLines(items.lastExchange, name));
  return lines.join("\n");
}

/**
 * Who gives way first when the brief is over its share: the list of closed items, then the
 * oldest file diffs, then the oldest items of the longest list. The goal's first entry and the
 * newest item of each list stay while anything else can go.
 */
const YIELD_ORDER: readonly BriefSection[] = [
  "closed",
  "preferences",
  "files",
  "errors",
  "openTasks",
  "decisions",
  "constraints",
  "goal",
];

export function renderBrief(
  items: BriefItems,
  maxTokens: number,
  charsPerToken: number,
  name: RunNamer,
  historyTool: boolean,
): { text: string; brief: HandoffBrief } {
  const totals: Record<BriefSection, number> = {
    goal: items.goal.length,
    decisions: items.decisions.length,
    constraints: items.constraints.length,
    preferences: items.preferences.length,
    openTasks: items.openTasks.length,
    files: items.files.length,
    errors: items.errors.length,
    closed: items.closed.length,
  };
  const shown: Shown = {
    ...totals,
    closed: Math.min(totals.closed, 12),
    errors: Math.min(totals.errors, 6),
    diffs: Math.min(totals.files, 30),
  };
  let text = render(items, shown, name, historyTool);
  while (estimateTokens(text, charsPerToken) > maxTokens) {
    if (shown.closed > 3) {
      shown.closed -= 1;
    } else if (shown.diffs > 3) {
      shown.diffs -= 1;
    } else {
      // Longest list first among those allowed to give way; each keeps its newest item.
      const candidates = YIELD_ORDER.filter((s) => shown[s] > 1);
      const pick = candidates.sort((a, b) => shown[b] - shown[a])[0];
      if (pick === undefined) {
        if (shown.diffs === 0) break;
        shown.diffs -= 1;
        text = render(items, shown, name, historyTool);
        continue;
      }
      // Big lists give way in steps, so a 4,000-run brief converges in few renders.
      shown[pick] -= Math.max(1, Math.floor(shown[pick] / 8));
    }
    text = render(items, shown, name, historyTool);
  }
  const left = Object.fromEntries(
    BRIEF_SECTIONS.map((s) => [s, Math.max(0, totals[s] - shown[s])]),
  ) as Record<BriefSection, number>;
  const keep = <T>(list: readonly T[], n: number) => list.slice(Math.max(0, list.length - n));
  const brief: HandoffBrief = {
    goal: keep(items.goal, shown.goal),
    decisions: keep(items.decisions, shown.decisions),
    constraints: keep(items.constraints, shown.constraints),
    preferences: keep(items.preferences, shown.preferences),
    openTasks: keep(items.openTasks, shown.openTasks),
    files: keep(items.files, shown.files),
    errors: keep(items.errors, shown.errors),
    closed: keep(items.closed, shown.closed),
    lastExchange: items.lastExchange,
    left,
    ...(items.netDiff ? { netDiff: items.netDiff } : {}),
  };
  return { text, brief };
}
