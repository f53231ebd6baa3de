import { collectRunContents, type RunContent } from "../handoff-content.ts";
import { commandBody, fileBody } from "../handoff-render.ts";
import type { Run, ThreadId, TurnItem } from "../inputs.ts";
import type { AsideRange } from "@skein/domain/run-number";
import { toRanges } from "../ordinal-ranges.ts";
import { compactRunsOf, formatNumberedRuns, runNumberOf, runWords } from "../run-numbers.ts";
import type { RunSegment } from "../run-history.ts";
import { estimateTokens, truncateMiddle } from "../token-budget.ts";
import { type HistoryCall, HistoryCallError } from "./history-call.ts";
import { sentencesOf, wordsOf } from "../brief/text.ts";

/** An answer never exceeds this many estimated tokens (the model's context is not ours to fill). */
export const HISTORY_ANSWER_TOKENS = 2_000;
const SNIPPET_CHARS = 320;
const MAX_HITS = 40;

/** What one transfer lets its target read: exactly the runs it covers. */
export type HistoryCoverage = {
  readonly selection: readonly RunSegment[];
  readonly runs: readonly Run[];
  readonly turnItems: readonly TurnItem[];
  /** Runs each thread counts before its own, as the handoff text numbers them (B16). */
  readonly runOffsets?: ReadonlyMap<ThreadId, number>;
  /** E3: each thread's runs that are not turns: no number, as in the handoff text. */
  readonly asideRuns?: ReadonlyMap<ThreadId, readonly AsideRange[]>;
};

type Line = { readonly role: string; readonly text: string };

function linesOf(content: RunContent): Line[] {
  const lines: Line[] = [];
  for (const sentence of sentencesOf(content.userMessage ?? ""))
    lines.push({ role: "the person", text: sentence });
  for (const plan of content.plans) lines.push({ role: "plan", text: plan });
  content.commands.forEach((command, i) => {
    const output = content.commandOutputs[i];
    lines.push({ role: "command", text: `${commandBody(command)}${output ? `: ${output}` : ""}` });
  });
  content.fileChanges.forEach((change, i) => {
    const diff = content.fileDiffs[i];
    lines.push({ role: "file", text: `${fileBody(change)}${diff ? `: ${diff}` : ""}` });
  });
  for (const sentence of sentencesOf(content.assistantReply ?? ""))
    lines.push({ role: "agent", text: sentence });
  for (const error of content.errors) lines.push({ role: "error", text: error });
  return lines;
}

function bounded(
  lines: readonly string[],
  tokens: number,
  overflow: (left: number) => string,
): string {
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const cost = estimateTokens(`${line}\n`);
    if (used + cost > tokens - 40) {
      out.push(overflow(lines.length - i));
      break;
    }
    out.push(line);
    used += cost;
  }
  return out.join("\n");
}

/**
 * Answers a `skein_history` call from the covered runs only (pure: the caller gathers them).
 * Runs are named by number, and by thread number when the coverage spans several threads, as
 * in the handoff text. A run outside the coverage is a HistoryCallError, never a guess.
 */
export function answerHistory(
  call: HistoryCall,
  coverage: HistoryCoverage,
  maxTokens = HISTORY_ANSWER_TOKENS,
): string {
  const segments = coverage.selection.filter((s) => s.ordinals.length > 0);
  const contents = collectRunContents(segments, coverage.runs, coverage.turnItems);
  const threadNumber = new Map<ThreadId, number>(segments.map((s, i) => [s.threadId, i + 1]));
  const multi = threadNumber.size > 1;
  // The handoff text's numbering: a fork counts on from its inherited turns, and a compaction
  // (or imported) run takes no number (E3), so "run 3" here is the text's (and the UI's) run 3.
  const numbering = { ...coverage, compactRuns: compactRunsOf(coverage.runs) };
  const number = (c: RunContent) => runNumberOf(numbering, c.threadId, c.ordinal);
  const name = (c: RunContent) =>
    `${multi ? `thread ${threadNumber.get(c.threadId)} ` : ""}${runWords(numbering, c)}`;
  const covered = segments
    .map(
      (s) =>
        `${multi ? `thread ${threadNumber.get(s.threadId)} ` : ""}${formatNumberedRuns(numbering, s.threadId, toRanges(s.ordinals))}`,
    )
    .join("; ");
  switch (call.op) {
    case "search":
      return search(call.query, contents, name, maxTokens);
    case "read": {
      const wanted = call.thread ?? (multi ? segments.length : 1);
      const threadId = segments[wanted - 1]?.threadId;
      // The run is asked for by the number the handoff text gave it.
      const content = contents.find((c) => c.threadId === threadId && number(c) === call.run);
      if (content === undefined) {
        throw new HistoryCallError(
          `${multi ? `thread ${wanted} ` : ""}run ${call.run} is not covered by this handoff (covered: ${covered || "nothing"})`,
        );
      }
      const lines = [
        `${name(content)} · ${content.provider} · ${content.status}`,
        ...linesOf(content).map((l) => `[${l.role}] ${l.text}`),
      ];
      return bounded(lines, maxTokens, (left) => `(${left} more lines left out for length)`);
    }
    case "files": {
      const latest = new Map<
        string,
        { run: RunContent; line: string; diff: string | null; changes: number }
      >();
      for (const content of contents) {
        content.fileChanges.forEach((change, i) => {
          const before = latest.get(change.fileName);
          latest.set(change.fileName, {
            run: content,
            line: fileBody(change),
            diff: content.fileDiffs[i] ?? null,
            changes: (before?.changes ?? 0) + 1,
          });
        });
      }
      if (latest.size === 0) return `No file changes in the covered runs (${covered}).`;
      const lines = [...latest.values()]
        .reverse()
        .flatMap(({ run, line, diff, changes }) => [
          `- ${line} (${changes} ${changes === 1 ? "change" : "changes"}, latest in ${name(run)})`,
          ...(diff
            ? [truncateMiddle(diff, 1_200) ?? diff].map((d) => `  ${d.replace(/\n/g, "\n  ")}`)
            : []),
        ]);
      return bounded(lines, maxTokens, (left) => `(${left} more lines left out for length)`);
    }
  }
}

function search(
  query: string,
  contents: readonly RunContent[],
  name: (c: RunContent) => string,
  maxTokens: number,
): string {
  const terms = [...new Set(wordsOf(query).filter((w) => w.length >= 2))];
  if (terms.length === 0) throw new HistoryCallError("the query has no words to search for");
  type Hit = { score: number; order: number; text: string };
  const hits: Hit[] = [];
  contents.forEach((content, order) => {
    for (const line of linesOf(content)) {
      const lower = line.text.toLowerCase();
      const matched = terms.filter((t) => lower.includes(t));
      if (matched.length === 0) continue;
      const at = Math.max(0, lower.indexOf(matched[0] ?? "") - 80);
      const snippet =
        line.text.length <= SNIPPET_CHARS
          ? line.text
          : `${at > 0 ? "…" : ""}${line.text.slice(at, at + SNIPPET_CHARS)}…`;
      hits.push({
        score: matched.length,
        order,
        text: `- ${name(content)} · ${line.role}: ${snippet}`,
      });
    }
  });
  if (hits.length === 0) return `No covered run mentions ${terms.join(", ")}.`;
  // Most query words first, then the newest: what is said last is most likely still in force.
  hits.sort((a, b) => b.score - a.score || b.order - a.order);
  const shown = hits.slice(0, MAX_HITS).map((h) => h.text);
  const head = `${hits.length} ${hits.length === 1 ? "match" : "matches"} for ${terms.join(", ")} (best first):`;
  const more = hits.length - shown.length;
  const body = bounded(
    shown,
    maxTokens - estimateTokens(head),
    (left) => `(+${left + more} more matches left out; narrow the query or read a run)`,
  );
  return `${head}\n${body}${more > 0 && !body.includes("more matches") ? `\n(+${more} more matches left out; narrow the query)` : ""}`;
}
