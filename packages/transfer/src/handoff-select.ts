import type { RunContent } from "./handoff-content.ts";
import {
  attachmentLine,
  commandBody,
  compactedLine,
  fileBody,
  type LinePart,
  omittedItemsLine,
  partLine,
  type RenderContext,
  runHeader,
  runLabel,
} from "./handoff-render.ts";
import { estimateTokens, truncateMiddle } from "./token-budget.ts";

/** One renderable line of a run, in render order. */
export type ContentLine = { readonly part: LinePart; readonly body: string };

export function linesOf(content: RunContent): ContentLine[] {
  const lines: ContentLine[] = [];
  if (content.userMessage !== null) lines.push({ part: "user", body: content.userMessage });
  for (const plan of content.plans) lines.push({ part: "plan", body: plan });
  for (const command of content.commands)
    lines.push({ part: "command", body: commandBody(command) });
  for (const change of content.fileChanges) lines.push({ part: "file", body: fileBody(change) });
  if (content.assistantReply !== null) {
    lines.push({ part: "assistant", body: content.assistantReply });
  }
  for (const error of content.errors) lines.push({ part: "error", body: error });
  return lines;
}

/** Per run: null when omitted, else line index → the body kept (possibly truncated). */
export type Selection = {
  readonly kept: readonly (ReadonlyMap<number, string> | null)[];
  /** How many checkpoint file lines fit. */
  readonly filesShown: number;
};

/** A covered run with its renderable lines. */
export type SelectableRun = {
  readonly content: RunContent;
  readonly lines: readonly ContentLine[];
};

export type SelectionInput = {
  readonly runs: readonly SelectableRun[];
  readonly ctx: RenderContext;
  readonly bodyBudget: number;
  readonly charsPerToken: number;
  /** Rendered checkpoint file lines, competing for budget with the priority messages. */
  readonly fileLines: readonly string[];
  readonly moreFilesLine: string;
};

type Priority = { readonly run: number; readonly line: number; readonly weight: number };

/**
 * Splits `available` among items in proportion to their weights, giving items that need less
 * than their share exactly what they need and handing the rest to the others. Integer and
 * order-stable, so the same inputs always grant the same tokens.
 */
export function waterFill(needs: readonly number[], weights: readonly number[], available: number) {
  const grants = needs.map(() => 0);
  let active = needs.map((_, i) => i);
  let remaining = available;
  while (active.length > 0 && remaining > 0) {
    const totalWeight = active.reduce((sum, i) => sum + (weights[i] ?? 1), 0);
    const share = (i: number) => Math.floor((remaining * (weights[i] ?? 1)) / totalWeight);
    const satisfied = active.filter((i) => (needs[i] ?? 0) <= share(i));
    if (satisfied.length === 0) {
      for (const i of active) grants[i] = share(i);
      break;
    }
    for (const i of satisfied) {
      grants[i] = needs[i] ?? 0;
      remaining -= needs[i] ?? 0;
    }
    active = active.filter((i) => !satisfied.includes(i));
  }
  return grants;
}

/**
 * Chooses what fits `bodyBudget` (tokens, counted per line so the sum bounds the whole):
 * first the latest user message, the latest assistant reply and the first user message (and,
 * for a checkpoint summary, its file list), truncated only if they alone exceed the budget;
 * then whole runs from the newest backwards until one no longer fits.
 */
export function selectWithinBudget(input: SelectionInput): Selection {
  const { runs, ctx, charsPerToken } = input;
  const tok = (text: string) => estimateTokens(`${text}\n`, charsPerToken);
  const unit = (run: number): SelectableRun => {
    const found = runs[run];
    if (found === undefined) throw new RangeError(`no covered run at index ${run}`);
    return found;
  };
  const bodyOf = (run: number, line: number) => unit(run).lines[line]?.body ?? "";
  const kept: (Map<number, string> | null)[] = runs.map(() => null);
  const keep = (run: number, line: number, body: string) => {
    const map = kept[run] ?? new Map<number, string>();
    map.set(line, body);
    kept[run] = map;
  };
  const label = (run: number) => runLabel(unit(run).content, ctx);
  // A compaction note goes with the header: it is said whenever the run is shown.
  const headerCost = (run: number) => {
    const { content } = unit(run);
    const note = content.compacted ? tok(compactedLine(label(run), content.provider)) : 0;
    const files = content.attachments.reduce(
      (sum, file) => sum + tok(attachmentLine(label(run), file)),
      0,
    );
    return tok(runHeader(content, ctx)) + note + files;
  };
  const markerCost = (run: number) => tok(omittedItemsLine(label(run), unit(run).lines.length));
  const lineText = (run: number, line: number, body: string) => {
    const { content, lines } = unit(run);
    return partLine(label(run), lines[line]?.part ?? "user", content.provider, body);
  };
  const lineCost = (run: number, line: number, body?: string) =>
    tok(lineText(run, line, body ?? bodyOf(run, line)));

  const find = (part: LinePart, newest: boolean): Priority | null => {
    for (let k = 0; k < runs.length; k++) {
      const run = newest ? runs.length - 1 - k : k;
      const line = unit(run).lines.findIndex((l) => l.part === part);
      if (line >= 0) return { run, line, weight: 0 };
    }
    return null;
  };
  const priorities: Priority[] = [];
  for (const [found, weight] of [
    [find("user", true), 3],
    [find("assistant", true), 3],
    [find("user", false), 2],
  ] as const) {
    if (found && !priorities.some((p) => p.run === found.run && p.line === found.line)) {
      priorities.push({ ...found, weight });
    }
  }
  const filesNeed =
    input.fileLines.reduce((sum, line) => sum + tok(line), 0) + tok(input.moreFilesLine);
  const needs = priorities.map(
    (p) => headerCost(p.run) + markerCost(p.run) + lineCost(p.run, p.line),
  );
  const weights = priorities.map((p) => p.weight);
  if (input.fileLines.length > 0) {
    needs.push(filesNeed);
    weights.push(2);
  }
  const grants = waterFill(needs, weights, Math.max(0, input.bodyBudget));

  let used = 0;
  priorities.forEach((p, i) => {
    const grant = grants[i] ?? 0;
    const overhead = headerCost(p.run) + markerCost(p.run);
    const body = bodyOf(p.run, p.line);
    if (grant >= (needs[i] ?? 0)) {
      keep(p.run, p.line, body);
      used += needs[i] ?? 0;
      return;
    }
    const prefix = lineText(p.run, p.line, "").length;
    const maxChars = Math.floor((grant - overhead) * charsPerToken) - prefix - 1;
    const cut = maxChars > 0 ? truncateMiddle(body, maxChars) : null;
    if (cut === null) return;
    keep(p.run, p.line, cut);
    used += overhead + lineCost(p.run, p.line, cut);
  });

  let filesShown = 0;
  if (input.fileLines.length > 0) {
    let room = (grants[priorities.length] ?? 0) - tok(input.moreFilesLine);
    for (const line of input.fileLines) {
      if (tok(line) > room) break;
      room -= tok(line);
      filesShown += 1;
    }
    used += grants[priorities.length] ?? 0;
  }

  let remaining = input.bodyBudget - used;
  for (let run = runs.length - 1; run >= 0; run--) {
    const runLines = unit(run).lines;
    const runKept = kept[run] ?? null;
    const missing = runLines.map((_, i) => i).filter((i) => !runKept?.has(i));
    const started = runKept !== null;
    if (started && missing.length === 0) continue;
    const all = (started ? 0 : headerCost(run)) + missing.reduce((s, i) => s + lineCost(run, i), 0);
    if (all <= remaining) {
      kept[run] = runKept ?? new Map<number, string>();
      for (const i of missing) keep(run, i, bodyOf(run, i));
      remaining -= all;
      continue;
    }
    // The run that no longer fits whole still gets its exchange if that fits; older runs go.
    const key = missing.filter(
      (i) => runLines[i]?.part === "user" || runLines[i]?.part === "assistant",
    );
    const some =
      (started ? 0 : headerCost(run) + markerCost(run)) +
      key.reduce((s, i) => s + lineCost(run, i), 0);
    if (key.length > 0 && some <= remaining) {
      for (const i of key) keep(run, i, bodyOf(run, i));
    }
    break;
  }
  return { kept, filesShown };
}
