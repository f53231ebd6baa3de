import type {
  HandoffCommand,
  HandoffFileChange,
  HandoffFileTotal,
  HandoffPayload,
  HandoffRunEntry,
} from "./handoff-types.ts";
import type { HandoffAttachment, ProviderKind, RunStatus, ThreadId } from "./inputs.ts";
import { turnsThrough } from "@skein/domain";
import { toRanges } from "./ordinal-ranges.ts";
import { formatNumberedRuns, type RunNumbering, runNumberOf, runWords } from "./run-numbers.ts";

export type LinePart = "user" | "plan" | "command" | "file" | "assistant" | "error";

/**
 * Attribution only names threads when a handoff spans several (a fork's inherited history), and
 * then by number in conversation order: internal ids stay in the payload, never in the text.
 */
export type RenderContext = RunNumbering & {
  readonly multiThread: boolean;
  readonly threadNumbers?: ReadonlyMap<ThreadId, number>;
  /** The thread the checkpoint of a checkpoint_summary belongs to (its run number is shifted). */
  readonly checkpointThreadId?: ThreadId | null;
};

type RunIdentity = {
  readonly threadId: ThreadId;
  readonly ordinal: number;
  readonly compacted?: boolean;
};

/**
 * The number a person reads for a thread's own run `ordinal` (as in the UI); for a run that is
 * not a turn, the turn it follows.
 */
export function runNumber(threadId: ThreadId, ordinal: number, ctx: RenderContext): number {
  return (
    runNumberOf(ctx, threadId, ordinal) ??
    (ctx.runOffsets?.get(threadId) ?? 0) + turnsThrough(ordinal, ctx.asideRuns?.get(threadId))
  );
}

export function threadName(threadId: ThreadId, ctx: RenderContext): string {
  const n = ctx.threadNumbers?.get(threadId);
  return n !== undefined ? `thread ${n}` : "another thread";
}

export function runLabel(run: RunIdentity, ctx: RenderContext): string {
  return ctx.multiThread
    ? `${threadName(run.threadId, ctx)} ${runWords(ctx, run)}`
    : runWords(ctx, run);
}

export function runHeader(
  run: RunIdentity & { readonly provider: ProviderKind; readonly status: RunStatus },
  ctx: RenderContext,
): string {
  return `## ${runLabel(run, ctx)} · ${run.provider} · ${run.status}`;
}

export function partLine(
  label: string,
  part: LinePart,
  provider: ProviderKind,
  body: string,
): string {
  const role = part === "assistant" ? `${provider} assistant` : part;
  return `[${label} · ${role}] ${body}`;
}

/** E16: a file goes by reference (its name, type and stored ref), never inlined. */
export function attachmentLine(label: string, file: HandoffAttachment): string {
  return `[${label} · attachment] ${file.name} (${file.mimeType}, ${file.ref})`;
}

/**
 * Said even when the run's items did not fit: what the provider knew changed here. Worded for
 * both kinds: the provider's own compaction, and Skein's for a provider that cannot compact.
 */
export function compactedLine(label: string, provider: ProviderKind): string {
  return `[${label} · compaction] ${provider}'s context was compacted here: from then on it knew the earlier runs only through a summary`;
}

export function omittedItemsLine(label: string, count: number): string {
  return `[${label} · ${count} ${count === 1 ? "item" : "items"} omitted for length]`;
}

export function commandBody(command: HandoffCommand): string {
  const outcome =
    command.exitCode !== null
      ? `exit ${command.exitCode}`
      : command.status !== null
        ? command.status
        : "no exit code";
  return `\`${command.input}\` → ${outcome}`;
}

function signed(additions: number | null, deletions: number | null): string {
  if (additions === null && deletions === null) return "";
  return ` +${additions ?? 0} -${deletions ?? 0}`;
}

export function fileBody(change: HandoffFileChange): string {
  return `${change.fileName}${signed(change.additions, change.deletions)}`;
}

export function fileTotalLine(total: HandoffFileTotal): string {
  const times = total.changes === 1 ? "1 change" : `${total.changes} changes`;
  return `- ${total.fileName}${signed(total.additions, total.deletions)} (${times})`;
}

function entryLines(entry: HandoffRunEntry, ctx: RenderContext): string[] {
  const label = runLabel(entry, ctx);
  const line = (part: LinePart, body: string) => partLine(label, part, entry.provider, body);
  const lines = [runHeader(entry, ctx)];
  if (entry.compacted) lines.push(compactedLine(label, entry.provider));
  if (entry.userMessage !== null) lines.push(line("user", entry.userMessage));
  for (const file of entry.attachments ?? []) lines.push(attachmentLine(label, file));
  for (const plan of entry.plans) lines.push(line("plan", plan));
  for (const command of entry.commands) lines.push(line("command", commandBody(command)));
  for (const change of entry.fileChanges) lines.push(line("file", fileBody(change)));
  if (entry.assistantReply !== null) lines.push(line("assistant", entry.assistantReply));
  for (const error of entry.errors) lines.push(line("error", error));
  if (entry.omittedItems > 0) lines.push(omittedItemsLine(label, entry.omittedItems));
  return lines;
}

/**
 * Kept entries one by one, and each stretch of consecutive omitted entries of one thread as a
 * list. A stretch is named by its first and last run: it holds every covered run in between.
 */
export function omissionBlocks(
  runs: readonly HandoffRunEntry[],
): (HandoffRunEntry | HandoffRunEntry[])[] {
  const blocks: (HandoffRunEntry | HandoffRunEntry[])[] = [];
  let stretch: HandoffRunEntry[] | null = null;
  for (const entry of runs) {
    if (entry.inclusion !== "omitted") {
      stretch = null;
      blocks.push(entry);
    } else if (stretch !== null && stretch[0]?.threadId === entry.threadId) {
      stretch.push(entry);
    } else {
      stretch = [entry];
      blocks.push(stretch);
    }
  }
  return blocks;
}

function omittedRunsLine(stretch: readonly HandoffRunEntry[], ctx: RenderContext): string {
  const first = stretch[0];
  const last = stretch[stretch.length - 1];
  if (first === undefined || last === undefined) return "";
  const where = ctx.multiThread ? `${threadName(first.threadId, ctx)} ` : "";
  const range = [{ from: first.ordinal, to: last.ordinal }];
  return `[${where}${formatNumberedRuns(ctx, first.threadId, range)} omitted for length]`;
}

const INTRO =
  "Context carried over from earlier runs of this conversation by Skein. Lines are attributed " +
  "as [run N · role]; the new user message follows the handoff.";

function sourceLine(payload: HandoffPayload): string {
  const t = payload.transfer;
  switch (t.type) {
    case "fork":
      return "source: a fork of an earlier conversation, carried up to its fork point";
    case "subagent_spawn":
      return "source: the conversation that spawned this subagent";
    case "merge_back":
      return "source: bring-back of a fork: the runs it made since it was forked from this thread";
    case "subagent_result":
      return "source: the result of a subagent thread";
    case "provider_handoff":
      return payload.kind === "delta_context"
        ? "source: runs this provider thread missed since it last took part"
        : switchesProvider(payload)
          ? "source: provider switch, whole conversation"
          : `source: whole conversation, carried to a new ${payload.targetProvider} thread (${payload.rebuildReason ?? "the previous one could not be continued"})`;
  }
}

/** A same-provider rebuild (e.g. a resume that failed) is not a provider switch. */
function switchesProvider(payload: HandoffPayload): boolean {
  if (payload.targetProvider === null) return true;
  return payload.runs.some((run) => run.provider !== payload.targetProvider);
}

const MAX_LISTED = 6;

function providersLine(payload: HandoffPayload, ctx: RenderContext): string {
  const groups = new Map<string, { head: string; byThread: Map<ThreadId, number[]> }>();
  for (const run of payload.runs) {
    const key = `${run.provider}\u0000${run.providerThreadId ?? ""}`;
    const group = groups.get(key) ?? {
      head: run.provider,
      byThread: new Map<ThreadId, number[]>(),
    };
    groups.set(key, group);
    const ordinals = group.byThread.get(run.threadId) ?? [];
    ordinals.push(run.ordinal);
    group.byThread.set(run.threadId, ordinals);
  }
  const parts = [...groups.values()].map(({ head, byThread }) => {
    const ranges = [...byThread].map(([threadId, ordinals]) => {
      const where = ctx.multiThread ? `${threadName(threadId, ctx)} ` : "";
      return `${where}${formatNumberedRuns(ctx, threadId, toRanges(ordinals))}`;
    });
    return `${head} ${ranges.join(", ")}`;
  });
  const hidden = parts.length - MAX_LISTED;
  const shown = parts.slice(0, MAX_LISTED).join("; ");
  return `providers: ${shown.length > 0 ? shown : "none"}${hidden > 0 ? ` (+${hidden} more)` : ""}`;
}

function threadRanges(list: HandoffPayload["coverage"], ctx: RenderContext): string {
  const parts = list
    .slice(0, MAX_LISTED)
    .map(({ threadId, runs }) =>
      ctx.multiThread
        ? `${formatNumberedRuns(ctx, threadId, runs)} of ${threadName(threadId, ctx)}`
        : formatNumberedRuns(ctx, threadId, runs),
    );
  const hidden = list.length - MAX_LISTED;
  const more = hidden > 0 ? ` (+${hidden} more threads)` : "";
  return `${parts.length > 0 ? parts.join("; ") : "no runs"}${more}`;
}

function checkpointLines(payload: HandoffPayload, ctx: RenderContext): string[] {
  const cp = payload.checkpoint;
  if (cp === null) return [];
  const at = cp.appRunOrdinal;
  const thread = ctx.checkpointThreadId;
  const facts = [
    at !== null ? `after run ${thread ? runNumber(thread, at, ctx) : at}` : null,
    cp.status,
  ].filter((fact): fact is string => fact !== null);
  const lines = [`checkpoint${facts.length > 0 ? `: ${facts.join(" · ")}` : ""}`];
  lines.push(`files changed since the thread start: ${cp.files.length}`);
  for (const file of cp.files.slice(0, cp.filesShown)) lines.push(fileTotalLine(file));
  if (cp.filesShown < cp.files.length) {
    lines.push(`- (+${cp.files.length - cp.filesShown} more files omitted for length)`);
  }
  return lines;
}

const HISTORY_TOOL_LINE =
  "The whole covered history stays available: call the skein_history tool to search it by words " +
  '({"op":"search","query":"..."}), read one run ({"op":"read","run":N}) or list the changed ' +
  'files with their latest diff ({"op":"files"}).';

function threadLegend(ctx: RenderContext): string[] {
  if (!ctx.multiThread || !ctx.threadNumbers) return [];
  const n = ctx.threadNumbers.size;
  return [`threads: thread 1 is the earliest conversation, thread ${n} the latest it led to`];
}

/** The preamble, the brief and the runs, one deterministic string per payload. */
export function renderSummary(payload: HandoffPayload, ctx: RenderContext, briefText = ""): string {
  const t = payload.transfer;
  const lines = [
    "# Context handoff",
    INTRO,
    `kind: ${t.type.replace(/_/g, " ")} · ${payload.strategy.replace(/_/g, " ")}${
      payload.targetProvider ? ` · for ${payload.targetProvider}` : ""
    }`,
    `covers: ${threadRanges(payload.coverage, ctx)}`,
    ...threadLegend(ctx),
    providersLine(payload, ctx),
    sourceLine(payload),
    ...checkpointLines(payload, ctx),
  ];
  if (payload.omitted.length > 0) {
    lines.push(`transcript runs left out for length: ${threadRanges(payload.omitted, ctx)}`);
  }
  if (payload.historyTool) lines.push(HISTORY_TOOL_LINE);
  if (briefText.length > 0) lines.push("", briefText);
  lines.push("");
  if (payload.brief) lines.push("## Transcript (newest runs that fit)");
  for (const block of omissionBlocks(payload.runs)) {
    if (Array.isArray(block)) {
      lines.push(omittedRunsLine(block, ctx));
    } else {
      lines.push(...entryLines(block, ctx));
    }
  }
  return lines.join("\n");
}
