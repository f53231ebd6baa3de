import type {
  Checkpoint,
  ContextHandoffKind,
  ContextHandoffStrategy,
  ContextSourcePoint,
  ContextTransferId,
  ContextTransferType,
  HandoffAttachment,
  ProviderKind,
  ProviderThreadId,
  Run,
  RunId,
  RunStatus,
  ThreadId,
  TurnItem,
} from "./inputs.ts";
import type { AsideRange } from "@skein/domain/run-number";
import type { HandoffBrief } from "./brief/index.ts";
import type { NetDiff, NetDiffSpan } from "./brief/net-diff.ts";
import type { OrdinalRange } from "./ordinal-ranges.ts";
import type { RunSegment } from "./run-history.ts";
import type { TokenBudget } from "./token-budget.ts";

export type HandoffCommand = {
  readonly input: string;
  readonly exitCode: number | null;
  readonly status: string | null;
};

export type HandoffFileChange = {
  readonly fileName: string;
  readonly additions: number | null;
  readonly deletions: number | null;
};

/**
 * One covered run as handed off. Omitted runs keep their identity and provider but no content;
 * partial runs keep what fit (texts may carry a truncation marker) and count what was left out.
 */
export type HandoffRunEntry = {
  readonly threadId: ThreadId;
  readonly runId: RunId;
  readonly ordinal: number;
  readonly provider: ProviderKind;
  readonly providerThreadId: ProviderThreadId | null;
  readonly status: RunStatus;
  readonly inclusion: "full" | "partial" | "omitted";
  readonly userMessage: string | null;
  readonly plans: readonly string[];
  readonly commands: readonly HandoffCommand[];
  readonly fileChanges: readonly HandoffFileChange[];
  readonly assistantReply: string | null;
  readonly errors: readonly string[];
  readonly omittedItems: number;
  /**
   * P6: the provider compacted its context in this run, so what it knew of the runs before came
   * from its own summary from then on (absent: no compaction).
   */
  readonly compacted?: true;
  /** E16: files the run's user message carried, by reference (absent: none). */
  readonly attachments?: readonly HandoffAttachment[];
};

export type HandoffFileTotal = {
  readonly fileName: string;
  readonly changes: number;
  readonly additions: number | null;
  readonly deletions: number | null;
};

export type HandoffCheckpointSummary = {
  readonly checkpointId: string;
  readonly ref: string | null;
  readonly appRunOrdinal: number | null;
  readonly status: string | null;
  /** Files changed from the thread start up to the checkpoint, by path. */
  readonly files: readonly HandoffFileTotal[];
  /** How many of `files` the text lists (the rest did not fit). */
  readonly filesShown: number;
};

/** The structured, auditable half of a ContextHandoff (E14 `payload`). */
export type HandoffPayload = {
  readonly version: 1;
  readonly strategy: ContextHandoffStrategy;
  readonly kind: ContextHandoffKind;
  readonly transfer: HandoffTransfer;
  readonly targetProvider: ProviderKind | null;
  readonly toProviderThreadId: ProviderThreadId | null;
  readonly coverage: readonly {
    readonly threadId: ThreadId;
    readonly runs: readonly OrdinalRange[];
  }[];
  readonly omitted: readonly {
    readonly threadId: ThreadId;
    readonly runs: readonly OrdinalRange[];
  }[];
  readonly checkpoint: HandoffCheckpointSummary | null;
  readonly runs: readonly HandoffRunEntry[];
  /** The user's text, for manual_context handoffs. */
  readonly manualText: string | null;
  /** Why the provider thread was rebuilt rather than continued, when a resume failed. */
  readonly rebuildReason?: string;
  /** Issue 25: the structured head the target reads first (absent on manual and old handoffs). */
  readonly brief?: HandoffBrief;
  /** The text offers the target the read-only `skein_history` tool over the covered runs. */
  readonly historyTool?: true;
  /** Issue 25: the text's estimated size against the budget it was built for. */
  readonly tokens?: { readonly budget: number; readonly used: number };
  /**
   * Who wrote the text (absent: Skein's builder, nobody asked otherwise). A provider's summary
   * that could not be used leaves `by: "skein"` with the reason.
   */
  readonly authorship?: {
    readonly by: "skein" | "provider";
    readonly provider: ProviderKind | null;
    readonly fallbackReason: string | null;
  };
};

/** The transfer fields a handoff names (a domain ContextTransfer satisfies it). */
export type HandoffTransfer = {
  readonly id: ContextTransferId;
  readonly type: ContextTransferType;
  readonly sourceThreadId: ThreadId;
  readonly targetThreadId: ThreadId;
  readonly basePoint?: ContextSourcePoint | null;
};

export type BuildHandoffInput = {
  readonly strategy: ContextHandoffStrategy;
  /** Defaults from the strategy; give it for manual_context standing in for a delta. */
  readonly kind?: ContextHandoffKind;
  readonly transfer: HandoffTransfer;
  /** Which runs the handoff covers, in conversation order (a resolution's `handoff.selection`). */
  readonly selection: readonly RunSegment[];
  readonly runs: readonly Run[];
  readonly turnItems: readonly TurnItem[];
  readonly targetProvider?: ProviderKind | null;
  readonly toProviderThreadId?: ProviderThreadId | null;
  /** The run's new user message: appended to `promptText`, never cut, not counted. */
  readonly newMessage?: string | null;
  /** Required for manual_context: it wins verbatim. */
  readonly manualText?: string | null;
  /** The checkpoint a checkpoint_summary names. */
  readonly checkpoint?: Checkpoint | null;
  readonly budget?: TokenBudget;
  /** Why the previous provider thread could not be continued (e.g. its resume failed). */
  readonly rebuildReason?: string | null;
  /** The target can call `skein_history` (app-owned tools): the text says so. */
  readonly historyTool?: boolean;
  /** Share of the budget the structured brief may take (default 0.5); the transcript gets the rest. */
  readonly briefShare?: number;
  /**
   * B16: runs each thread counts before its own (a fork's inherited runs), so the text numbers
   * runs as the UI does; a thread not listed counts from 1. Ids and ordinals in the payload stay.
   */
  readonly runOffsets?: ReadonlyMap<ThreadId, number>;
  /**
   * E3: each thread's runs that are not turns (compaction, imported, system): they take no number
   * and do not push the turns after them on (see run-numbers.ts).
   */
  readonly asideRuns?: ReadonlyMap<ThreadId, readonly AsideRange[]>;
  /**
   * Issue 25 item 2: git's net diff from the handoff's base to its source point (read by the
   * caller from checkpoints); the brief's "state of the code" is this instead of the runs' edits.
   */
  readonly netDiff?: { readonly diff: NetDiff; readonly span: NetDiffSpan } | null;
};

/** Everything a ContextHandoff (E14) needs besides ids, status and timestamps. */
export type HandoffBuild = {
  readonly transferId: ContextTransferId;
  readonly threadId: ThreadId;
  readonly strategy: ContextHandoffStrategy;
  readonly kind: ContextHandoffKind;
  readonly coveredRunOrdinals: OrdinalRange | null;
  readonly fromProviderThreadIds: readonly ProviderThreadId[];
  readonly toProviderThreadId: ProviderThreadId | null;
  readonly summaryText: string;
  /** summaryText followed by the new user message, as sent to the provider. */
  readonly promptText: string;
  readonly payload: HandoffPayload;
  readonly tokens: {
    readonly budget: number;
    readonly summary: number;
    readonly newMessage: number;
  };
};
