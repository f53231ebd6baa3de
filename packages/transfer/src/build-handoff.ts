import { type BriefItems, briefItems, renderBrief } from "./brief/index.ts";
import { netBriefFiles } from "./brief/net-diff.ts";
import { collectRunContents, HandoffInputError, type RunContent } from "./handoff-content.ts";
import { handoffKindOf } from "./handoff-plan.ts";
import {
  fileTotalLine,
  omissionBlocks,
  type RenderContext,
  renderSummary,
  runLabel,
} from "./handoff-render.ts";
import { type ContentLine, linesOf, type Selection, selectWithinBudget } from "./handoff-select.ts";
import type {
  BuildHandoffInput,
  HandoffBuild,
  HandoffCheckpointSummary,
  HandoffFileTotal,
  HandoffPayload,
  HandoffRunEntry,
} from "./handoff-types.ts";
import type { ContextHandoffKind } from "./inputs.ts";
import { type OrdinalRange, span, toRanges } from "./ordinal-ranges.ts";
import { compactRunsOf } from "./run-numbers.ts";
import { estimateTokens, resolveBudget, truncateMiddle } from "./token-budget.ts";

const NEW_MESSAGE_SEPARATOR = "\n\n---\n[new message · user]\n";

/** Issue 25 item 2: git's net diff, when the caller read one, stands for the runs' file changes. */
function withNetDiff(items: BriefItems, net: BuildHandoffInput["netDiff"]): BriefItems {
  if (!net) return items;
  return { ...items, files: netBriefFiles(items.files, net.diff), netDiff: net.span };
}

function entryFor(
  content: RunContent,
  lines: readonly ContentLine[],
  selected: ReadonlyMap<number, string> | null,
): HandoffRunEntry {
  if (selected === null) {
    // Most runs of a long thread are omitted: no per-line work for them.
    return {
      threadId: content.threadId,
      runId: content.runId,
      ordinal: content.ordinal,
      provider: content.provider,
      providerThreadId: content.providerThreadId,
      status: content.status,
      inclusion: "omitted",
      userMessage: null,
      plans: [],
      commands: [],
      fileChanges: [],
      assistantReply: null,
      errors: [],
      omittedItems: 0,
      ...(content.compacted ? { compacted: true as const } : {}),
      ...(content.attachments.length > 0 ? { attachments: content.attachments } : {}),
    };
  }
  const kept = selected;
  const pick = (part: ContentLine["part"]) =>
    lines.flatMap((line, i) => (line.part === part && kept.has(i) ? [i] : []));
  const keptOf = <T>(part: ContentLine["part"], items: readonly T[]): T[] => {
    const all = lines.flatMap((line, i) => (line.part === part ? [i] : []));
    return items.filter((_, k) => kept.has(all[k] ?? -1));
  };
  const userLine = pick("user")[0];
  const assistantLine = pick("assistant")[0];
  const omittedItems = lines.length - kept.size;
  return {
    threadId: content.threadId,
    runId: content.runId,
    ordinal: content.ordinal,
    provider: content.provider,
    providerThreadId: content.providerThreadId,
    status: content.status,
    inclusion: omittedItems > 0 ? "partial" : "full",
    userMessage: userLine !== undefined ? (kept.get(userLine) ?? null) : null,
    plans: keptOf("plan", content.plans),
    commands: keptOf("command", content.commands),
    fileChanges: keptOf("file", content.fileChanges),
    assistantReply: assistantLine !== undefined ? (kept.get(assistantLine) ?? null) : null,
    errors: keptOf("error", content.errors),
    omittedItems,
    ...(content.compacted ? { compacted: true as const } : {}),
    ...(content.attachments.length > 0 ? { attachments: content.attachments } : {}),
  };
}

/** Selections end at the checkpoint's run, so every covered change is part of its state. */
function fileTotals(contents: readonly RunContent[]): HandoffFileTotal[] {
  const totals = new Map<
    string,
    { changes: number; additions: number | null; deletions: number | null }
  >();
  for (const content of contents) {
    for (const change of content.fileChanges) {
      const total = totals.get(change.fileName) ?? { changes: 0, additions: null, deletions: null };
      total.changes += 1;
      if (change.additions !== null) total.additions = (total.additions ?? 0) + change.additions;
      if (change.deletions !== null) total.deletions = (total.deletions ?? 0) + change.deletions;
      totals.set(change.fileName, total);
    }
  }
  return [...totals]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([fileName, total]) => ({ fileName, ...total }));
}

function groupByThread(
  items: readonly { threadId: string; range: OrdinalRange }[],
): HandoffPayload["coverage"] {
  const byThread = new Map<string, OrdinalRange[]>();
  for (const { threadId, range } of items) {
    byThread.set(threadId, [...(byThread.get(threadId) ?? []), range]);
  }
  return [...byThread].map(([threadId, runs]) => ({ threadId, runs }));
}

function defaultKind(input: BuildHandoffInput): ContextHandoffKind {
  if (input.kind) return input.kind;
  return input.strategy === "manual_context" ? "portable_context" : handoffKindOf(input.strategy);
}

/**
 * Materializes a ContextHandoff body (E14): the structured payload and its deterministic text.
 * Pure: the same input gives byte-identical `summaryText`. The text never exceeds the token
 * budget, except a manual_context text, which is the user's and is kept verbatim.
 */
export function buildHandoff(input: BuildHandoffInput): HandoffBuild {
  const budget = resolveBudget(input.budget);
  const contents = collectRunContents(input.selection, input.runs, input.turnItems);
  const threadIds = [
    ...new Set(input.selection.filter((s) => s.ordinals.length > 0).map((s) => s.threadId)),
  ];
  const ctx: RenderContext = {
    multiThread: threadIds.length > 1,
    threadNumbers: new Map(threadIds.map((id, i) => [id, i + 1])),
    ...(input.runOffsets ? { runOffsets: input.runOffsets } : {}),
    ...(input.asideRuns ? { asideRuns: input.asideRuns } : {}),
    compactRuns: compactRunsOf(input.runs),
    checkpointThreadId: input.checkpoint
      ? (input.runs.find((r) => r.id === input.checkpoint?.runId)?.threadId ?? null)
      : null,
  };
  const fromProviderThreadIds = [
    ...new Set(contents.flatMap((c) => (c.providerThreadId ? [c.providerThreadId] : []))),
  ];
  const checkpoint = input.checkpoint ?? null;
  if (input.strategy === "checkpoint_summary" && checkpoint === null) {
    throw new HandoffInputError("checkpoint_summary needs the checkpoint it names");
  }
  const files = input.strategy === "checkpoint_summary" ? fileTotals(contents) : [];
  const base = {
    version: 1,
    strategy: input.strategy,
    kind: defaultKind(input),
    transfer: {
      id: input.transfer.id,
      type: input.transfer.type,
      sourceThreadId: input.transfer.sourceThreadId,
      targetThreadId: input.transfer.targetThreadId,
      basePoint: input.transfer.basePoint ?? null,
    },
    targetProvider: input.targetProvider ?? null,
    toProviderThreadId: input.toProviderThreadId ?? null,
    coverage: input.selection
      .filter((s) => s.ordinals.length > 0)
      .map((s) => ({ threadId: s.threadId, runs: toRanges(s.ordinals) })),
    manualText: null,
    // Only present when known, so payloads built without one stay as they were.
    ...(input.rebuildReason ? { rebuildReason: input.rebuildReason } : {}),
    ...(input.historyTool ? { historyTool: true as const } : {}),
  } as const;

  // The brief is budgeted once, on its own share; the transcript fills what it leaves.
  const share = input.briefShare ?? 0.5;
  const brief =
    input.strategy === "manual_context" || contents.length === 0
      ? null
      : renderBrief(
          withNetDiff(briefItems(contents), input.netDiff),
          Math.floor(budget.maxTokens * share),
          budget.charsPerToken,
          (run) => runLabel(run, ctx),
          input.historyTool === true,
        );
  const units = contents.map((content) => ({ content, lines: linesOf(content) }));
  const payloadFor = (selection: Selection): HandoffPayload => {
    const runs = units.map((u, i) => entryFor(u.content, u.lines, selection.kept[i] ?? null));
    const omitted = omissionBlocks(runs).flatMap((block) => {
      if (!Array.isArray(block)) return [];
      const range = span(block.map((entry) => entry.ordinal));
      return range && block[0] ? [{ threadId: block[0].threadId, range }] : [];
    });
    const checkpointSummary: HandoffCheckpointSummary | null =
      checkpoint !== null && input.strategy === "checkpoint_summary"
        ? {
            checkpointId: checkpoint.id,
            ref: checkpoint.ref,
            appRunOrdinal: checkpoint.appRunOrdinal,
            status: checkpoint.status,
            files,
            filesShown: selection.filesShown,
          }
        : null;
    return {
      ...base,
      omitted: groupByThread(omitted),
      checkpoint: checkpointSummary,
      runs,
      ...(brief ? { brief: brief.brief } : {}),
    };
  };

  const newMessage = input.newMessage ?? null;
  const finish = (built: HandoffPayload, summaryText: string): HandoffBuild => {
    const used = estimateTokens(summaryText, budget.charsPerToken);
    // Manual text is the person's: it carries no budget of ours.
    const payload: HandoffPayload =
      input.strategy === "manual_context"
        ? built
        : { ...built, tokens: { budget: budget.maxTokens, used } };
    return {
      transferId: input.transfer.id,
      threadId: input.transfer.targetThreadId,
      strategy: input.strategy,
      kind: payload.kind,
      coveredRunOrdinals: span(input.selection.flatMap((s) => s.ordinals)),
      fromProviderThreadIds,
      toProviderThreadId: payload.toProviderThreadId,
      summaryText,
      promptText:
        newMessage !== null ? `${summaryText}${NEW_MESSAGE_SEPARATOR}${newMessage}` : summaryText,
      payload,
      tokens: {
        budget: budget.maxTokens,
        summary: used,
        newMessage: newMessage !== null ? estimateTokens(newMessage, budget.charsPerToken) : 0,
      },
    };
  };

  if (input.strategy === "manual_context") {
    if (input.manualText === undefined || input.manualText === null) {
      throw new HandoffInputError("manual_context needs manualText");
    }
    const empty = payloadFor({ kept: [], filesShown: 0 });
    const payload = { ...empty, runs: [], omitted: [], manualText: input.manualText };
    return finish(payload, input.manualText);
  }

  const fileLines = files.map(fileTotalLine);
  const moreFilesLine = `- (+${files.length} more files omitted for length)`;
  const select = (bodyBudget: number) =>
    selectWithinBudget({
      runs: units,
      ctx,
      bodyBudget,
      charsPerToken: budget.charsPerToken,
      fileLines,
      moreFilesLine,
    });
  const measure = (payload: HandoffPayload) => {
    const text = renderSummary(payload, ctx, brief?.text ?? "");
    return { payload, text, tokens: estimateTokens(text, budget.charsPerToken) };
  };

  const skeleton = measure(payloadFor(select(0)));
  let bodyBudget = budget.maxTokens - skeleton.tokens;
  // Per-line accounting over-estimates, so this loop rarely runs more than once; each round
  // shrinks the body budget by the overshoot, which keeps the text inside maxTokens.
  while (bodyBudget > 0) {
    const attempt = measure(payloadFor(select(bodyBudget)));
    if (attempt.tokens <= budget.maxTokens) {
      // One refill pass spends the slack the conservative estimate left unused.
      const slack = budget.maxTokens - attempt.tokens;
      const refill = slack > 0 ? measure(payloadFor(select(bodyBudget + slack))) : attempt;
      const best = refill.tokens <= budget.maxTokens ? refill : attempt;
      return finish(best.payload, best.text);
    }
    bodyBudget -= attempt.tokens - budget.maxTokens;
  }
  if (skeleton.tokens <= budget.maxTokens) return finish(skeleton.payload, skeleton.text);
  // Only absurdly long ids get here: cut the preamble itself rather than break the budget.
  const cut =
    truncateMiddle(skeleton.text, Math.floor(budget.maxTokens * budget.charsPerToken)) ?? "";
  return finish(skeleton.payload, cut);
}
