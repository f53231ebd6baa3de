import type {
  HandoffCommand,
  HandoffFileChange,
  HandoffFileTotal,
  HandoffPayload,
  HandoffRunEntry,
} from "./handoff-types.ts";
import type { HandoffAttachment, ProviderKind, RunStatus, ThreadId } from "./inputs.ts";
import { formatRunRanges, toRanges } from "./ordinal-ranges.ts";

export type LinePart = "user" | "plan" | "command" | "file" | "assistant" | "error";

/** Attribution only names threads when a handoff spans several (a fork's inherited history). */
export type RenderContext = { readonly multiThread: boolean };

type RunIdentity = { readonly threadId: ThreadId; readonly ordinal: number };

export function runLabel(run: RunIdentity, ctx: RenderContext): string {
  return ctx.multiThread ? `${run.threadId} run ${run.ordinal}` : `run ${run.ordinal}`;
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

/** Said even when the run's items did not fit: what the provider knew changed here. */
export function compactedLine(label: string, provider: ProviderKind): string {
  return `[${label} · compaction] ${provider} compacted its context here: from then on it knew the earlier runs only through its own summary`;
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
  const where = ctx.multiThread ? `${first.threadId} ` : "";
  return `[${where}${formatRunRanges([{ from: first.ordinal, to: last.ordinal }])} omitted for length]`;
}

const INTRO =
  "Context carried over from earlier runs of this conversation by Skein. Lines are attributed " +
  "as [run N · role]; the new user message follows the handoff.";

function sourceLine(payload: HandoffPayload): string {
  const t = payload.transfer;
  const base = t.basePoint
    ? ` (base: ${t.basePoint.threadId}${t.basePoint.runId ? ` at ${t.basePoint.runId}` : ""})`
    : "";
  switch (t.type) {
    case "fork":
      return `source: fork of ${t.sourceThreadId}`;
    case "subagent_spawn":
      return `source: subagent spawned from ${t.sourceThreadId}`;
    case "merge_back":
      return `source: bring-back of fork ${t.sourceThreadId}${base}`;
    case "subagent_result":
      return `source: result of subagent thread ${t.sourceThreadId}${base}`;
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
      head: run.providerThreadId ? `${run.provider} ${run.providerThreadId}` : run.provider,
      byThread: new Map<ThreadId, number[]>(),
    };
    groups.set(key, group);
    const ordinals = group.byThread.get(run.threadId) ?? [];
    ordinals.push(run.ordinal);
    group.byThread.set(run.threadId, ordinals);
  }
  const parts = [...groups.values()].map(({ head, byThread }) => {
    const ranges = [...byThread].map(([threadId, ordinals]) => {
      const where = ctx.multiThread ? `${threadId} ` : "";
      return `${where}${formatRunRanges(toRanges(ordinals))}`;
    });
    return `${head} ${ranges.join(", ")}`;
  });
  const hidden = parts.length - MAX_LISTED;
  const shown = parts.slice(0, MAX_LISTED).join("; ");
  return `providers: ${shown.length > 0 ? shown : "none"}${hidden > 0 ? ` (+${hidden} more)` : ""}`;
}

function threadRanges(list: HandoffPayload["coverage"]): string {
  const parts = list
    .slice(0, MAX_LISTED)
    .map(({ threadId, runs }) => `${formatRunRanges(runs)} of ${threadId}`);
  const hidden = list.length - MAX_LISTED;
  const more = hidden > 0 ? ` (+${hidden} more threads)` : "";
  return `${parts.length > 0 ? parts.join("; ") : "no runs"}${more}`;
}

function checkpointLines(payload: HandoffPayload): string[] {
  const cp = payload.checkpoint;
  if (cp === null) return [];
  const facts = [
    cp.ref ? `ref ${cp.ref}` : null,
    cp.appRunOrdinal !== null ? `after run ${cp.appRunOrdinal}` : null,
    cp.status,
  ].filter((fact): fact is string => fact !== null);
  const lines = [
    `checkpoint: ${cp.checkpointId}${facts.length > 0 ? ` · ${facts.join(" · ")}` : ""}`,
  ];
  lines.push(`files changed since the thread start: ${cp.files.length}`);
  for (const file of cp.files.slice(0, cp.filesShown)) lines.push(fileTotalLine(file));
  if (cp.filesShown < cp.files.length) {
    lines.push(`- (+${cp.files.length - cp.filesShown} more files omitted for length)`);
  }
  return lines;
}

/** The preamble and the runs, one deterministic string per payload. */
export function renderSummary(payload: HandoffPayload, ctx: RenderContext): string {
  const t = payload.transfer;
  const target = [
    payload.targetProvider ? `target: ${payload.targetProvider}` : null,
    payload.toProviderThreadId ? `provider thread ${payload.toProviderThreadId}` : null,
  ].filter((part): part is string => part !== null);
  const lines = [
    "# Context handoff",
    INTRO,
    `transfer: ${t.id} (${t.type}) · strategy: ${payload.strategy} · into ${t.targetThreadId}`,
    ...(target.length > 0 ? [target.join(" · ")] : []),
    `covers: ${threadRanges(payload.coverage)}`,
    providersLine(payload, ctx),
    sourceLine(payload),
    ...checkpointLines(payload),
  ];
  if (payload.omitted.length > 0) {
    lines.push(`omitted for length: ${threadRanges(payload.omitted)}`);
  }
  lines.push("");
  for (const block of omissionBlocks(payload.runs)) {
    if (Array.isArray(block)) {
      lines.push(omittedRunsLine(block, ctx));
    } else {
      lines.push(...entryLines(block, ctx));
    }
  }
  return lines.join("\n");
}
