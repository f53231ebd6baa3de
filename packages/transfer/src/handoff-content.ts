import type { HandoffCommand, HandoffFileChange } from "./handoff-types.ts";
import type {
  HandoffAttachment,
  ProviderKind,
  ProviderThreadId,
  Run,
  RunId,
  RunStatus,
  ThreadId,
  TurnItem,
} from "./inputs.ts";
import type { RunSegment } from "./run-history.ts";
import { truncateMiddle } from "./token-budget.ts";

/** Everything a covered run could contribute, before budgeting. */
export type RunContent = {
  readonly threadId: ThreadId;
  readonly runId: RunId;
  readonly ordinal: number;
  readonly provider: ProviderKind;
  readonly providerThreadId: ProviderThreadId | null;
  readonly status: RunStatus;
  readonly userMessage: string | null;
  readonly plans: readonly string[];
  readonly commands: readonly HandoffCommand[];
  readonly fileChanges: readonly HandoffFileChange[];
  readonly assistantReply: string | null;
  readonly errors: readonly string[];
  /** A compaction of the provider's context completed in this run (P6). */
  readonly compacted: boolean;
  /** E16: files the user message carried, by reference. */
  readonly attachments: readonly HandoffAttachment[];
  /** Output of each command (same order as `commands`), capped; for the brief and history. */
  readonly commandOutputs: readonly (string | null)[];
  /** Diff (or new text) of each file change (same order as `fileChanges`), capped. */
  readonly fileDiffs: readonly (string | null)[];
  /** Steps of the run's last todo list (E17), as the runtime reported them. */
  readonly todoSteps: readonly TodoStep[];
};

export type TodoStep = { readonly text: string; readonly status: string };

// Per-item caps so one pathological command line or plan cannot crowd out the conversation.
const MAX_COMMAND_CHARS = 300;
const MAX_PLAN_CHARS = 2_000;
const MAX_ERROR_CHARS = 500;
const MAX_OUTPUT_CHARS = 2_000;
const MAX_DIFF_CHARS = 4_000;

export class HandoffInputError extends Error {
  override readonly name = "HandoffInputError";
}

function clean(text: string): string {
  return text.replace(/\r\n?/g, "\n").trim();
}

function capped(text: string, max: number): string {
  return truncateMiddle(text, max) ?? text.slice(0, max);
}

function joinTexts(items: readonly TurnItem[]): string | null {
  const texts = items.map((item) => clean(item.text ?? "")).filter((text) => text.length > 0);
  return texts.length > 0 ? texts.join("\n\n") : null;
}

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  return JSON.stringify(value) ?? "";
}

function planText(item: TurnItem): string | null {
  const direct = clean(item.markdown ?? item.text ?? "");
  if (direct.length > 0) return capped(direct, MAX_PLAN_CHARS);
  if (!Array.isArray(item.steps)) return null;
  const steps = item.steps
    .map((step: unknown) => {
      if (typeof step !== "object" || step === null) return asText(step);
      const { text, status } = step as { text?: unknown; status?: unknown };
      const label = clean(asText(text));
      return typeof status === "string" ? `[${status}] ${label}` : label;
    })
    .filter((step) => step.length > 0);
  return steps.length > 0 ? capped(steps.join("; "), MAX_PLAN_CHARS) : null;
}

function todoStepsOf(plans: readonly TurnItem[]): TodoStep[] {
  const lists = plans.filter((item) => item.kind === "todo_list" && Array.isArray(item.steps));
  const last = lists[lists.length - 1];
  if (!last || !Array.isArray(last.steps)) return [];
  return last.steps.flatMap((step: unknown) => {
    if (typeof step !== "object" || step === null) return [];
    const { text, status } = step as { text?: unknown; status?: unknown };
    const label = clean(asText(text));
    return label.length > 0
      ? [{ text: label, status: typeof status === "string" ? status : "pending" }]
      : [];
  });
}

function optionalText(value: unknown, max: number): string | null {
  const text = clean(asText(value));
  return text.length > 0 ? capped(text, max) : null;
}

function contentOf(run: Run, items: readonly TurnItem[]): RunContent {
  const ofType = (type: TurnItem["type"]) => items.filter((item) => item.type === type);
  const errors: string[] = [];
  for (const item of items) {
    if (item.status !== "failed" || item.type === "command_execution") continue;
    const name = item.toolName ? `${item.type} ${item.toolName}` : item.type;
    errors.push(capped(`${name} failed`, MAX_ERROR_CHARS));
  }
  if (run.status === "failed" || run.status === "interrupted") errors.push(`run ${run.status}`);
  return {
    threadId: run.threadId,
    runId: run.id,
    ordinal: run.ordinal,
    provider: run.provider,
    providerThreadId: run.providerThreadId,
    status: run.status,
    userMessage: joinTexts(ofType("user_message")),
    plans: ofType("plan")
      .map(planText)
      .filter((text): text is string => text !== null),
    commands: ofType("command_execution").map((item) => ({
      input: capped(clean(asText(item.input)), MAX_COMMAND_CHARS),
      exitCode: item.exitCode ?? null,
      status: item.status ?? null,
    })),
    fileChanges: ofType("file_change").map((item) => ({
      fileName: item.fileName ?? "(unnamed file)",
      additions: item.additions ?? null,
      deletions: item.deletions ?? null,
    })),
    assistantReply: joinTexts(ofType("assistant_message")),
    errors,
    compacted: ofType("compaction").some((item) => item.status === "completed"),
    attachments: ofType("user_message").flatMap((item) =>
      (item.attachments ?? []).map(({ name, mimeType, ref }) => ({ name, mimeType, ref })),
    ),
    commandOutputs: ofType("command_execution").map((item) =>
      optionalText(item.output, MAX_OUTPUT_CHARS),
    ),
    fileDiffs: ofType("file_change").map((item) =>
      optionalText(item.diffStr ?? item.newStr, MAX_DIFF_CHARS),
    ),
    todoSteps: todoStepsOf(ofType("plan")),
  };
}

/** The covered runs with their turn items, in selection order. */
/** E12: a run's items up to and including `itemId` (a source point inside the run). */
function itemsThrough(items: readonly TurnItem[], itemId: string, run: Run): TurnItem[] {
  const at = items.findIndex((item) => item.id === itemId);
  if (at < 0) {
    throw new HandoffInputError(`turn item ${itemId} is not an item of run ${run.id}`);
  }
  return items.slice(0, at + 1);
}

export function collectRunContents(
  selection: readonly RunSegment[],
  runs: readonly Run[],
  turnItems: readonly TurnItem[],
): RunContent[] {
  const runByKey = new Map<string, Run>();
  for (const run of runs) runByKey.set(`${run.threadId}\u0000${run.ordinal}`, run);
  const itemsByRun = new Map<RunId, TurnItem[]>();
  for (const item of turnItems) {
    if (item.runId === null) continue;
    const list = itemsByRun.get(item.runId);
    if (list) list.push(item);
    else itemsByRun.set(item.runId, [item]);
  }
  const contents: RunContent[] = [];
  for (const segment of selection) {
    const last = segment.ordinals.at(-1);
    for (const ordinal of segment.ordinals) {
      const run = runByKey.get(`${segment.threadId}\u0000${ordinal}`);
      if (run === undefined) {
        throw new HandoffInputError(
          `run ${ordinal} of thread ${segment.threadId} is selected but missing from runs`,
        );
      }
      const items = itemsByRun.get(run.id) ?? [];
      const cut = ordinal === last ? segment.throughItemId : undefined;
      contents.push(contentOf(run, cut === undefined ? items : itemsThrough(items, cut, run)));
    }
  }
  return contents;
}
