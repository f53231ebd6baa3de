/**
 * The slices of domain entities that transfer reads. Field names and enums follow SPEC (E3, E7,
 * E9, E11, E12, E14, P6) so `@skein/domain` entities satisfy these types structurally; the id
 * aliases are the single place to swap in branded domain ids. Fields are readonly and optional
 * fields accept `null` so both the SPEC (`runId?`) and the seed (`runId: … | null`) spellings fit.
 */

export type ThreadId = string;
export type RunId = string;
export type ProviderThreadId = string;
export type ContextTransferId = string;
export type ContextHandoffId = string;
export type CheckpointId = string;
export type TurnItemId = string;
export type NodeId = string;

export type ProviderKind = "codex" | "claude";

export type RunStatus =
  | "queued"
  | "starting"
  | "running"
  | "waiting"
  | "completed"
  | "interrupted"
  | "failed"
  | "cancelled"
  | "rolled_back";

/** E3 — only the fields transfer reads. */
export type Run = {
  readonly id: RunId;
  readonly threadId: ThreadId;
  readonly ordinal: number;
  readonly provider: ProviderKind;
  readonly providerThreadId: ProviderThreadId | null;
  readonly status: RunStatus;
  readonly checkpointId?: CheckpointId | null;
};

export type ProviderThreadStatus =
  | "not_loaded"
  | "idle"
  | "active"
  | "archived"
  | "closed"
  | "error";

/** E9 — a provider-native conversation with its (possibly gapped) run coverage. */
export type ProviderThread = {
  readonly id: ProviderThreadId;
  readonly provider: ProviderKind;
  readonly appThreadId?: ThreadId | null;
  readonly ownerNodeId?: NodeId | null;
  readonly nativeThreadRef: string | null;
  readonly status: ProviderThreadStatus;
  readonly firstRunOrdinal: number | null;
  readonly lastRunOrdinal: number | null;
  readonly handoffIds: readonly ContextHandoffId[];
};

/** E12 */
export type ContextSourcePoint = {
  readonly threadId: ThreadId;
  readonly runId?: RunId | null;
  readonly checkpointId?: CheckpointId | null;
  readonly turnItemId?: TurnItemId | null;
  readonly providerThreadRef?: string | null;
  readonly providerTurnRef?: string | null;
};

export type ContextTransferType =
  | "fork"
  | "provider_handoff"
  | "merge_back"
  | "subagent_spawn"
  | "subagent_result";

export type ContextTransferStatus =
  | "pending"
  | "resolved_native"
  | "resolved_portable"
  | "failed"
  | "consumed"
  | "superseded";

/** E11 — only the fields transfer reads. */
export type ContextTransfer = {
  readonly id: ContextTransferId;
  readonly type: ContextTransferType;
  readonly sourceThreadId: ThreadId;
  readonly targetThreadId: ThreadId;
  readonly sourcePoint: ContextSourcePoint;
  readonly basePoint?: ContextSourcePoint | null;
  readonly sourceProvider?: ProviderKind | null;
  readonly targetProvider?: ProviderKind | null;
  readonly status: ContextTransferStatus;
};

export type ContextHandoffStrategy =
  | "delta_since_target_last_seen"
  | "full_thread_summary"
  | "checkpoint_summary"
  | "manual_context";

export type ContextHandoffKind = "portable_context" | "delta_context" | "checkpoint_context";

export type ContextHandoffStatus = "pending" | "ready" | "failed" | "superseded";

/** E14 — the coverage slice, used to verify that a provider thread's gaps were bridged. */
export type ContextHandoff = {
  readonly id: ContextHandoffId;
  readonly toProviderThreadId: ProviderThreadId | null;
  readonly coveredRunOrdinals: { readonly from: number; readonly to: number } | null;
  readonly status: ContextHandoffStatus;
};

export type CheckpointStatus = "ready" | "missing" | "error" | "stale";

/** E7 — enough to locate a checkpoint source point and name it in a checkpoint summary. */
export type Checkpoint = {
  readonly id: CheckpointId;
  readonly runId: RunId | null;
  readonly appRunOrdinal: number | null;
  readonly ref: string;
  readonly status: CheckpointStatus;
};

export type TurnItemType =
  | "user_message"
  | "assistant_message"
  | "reasoning"
  | "plan"
  | "file_change"
  | "command_execution"
  | "file_search"
  | "web_search"
  | "approval_request"
  | "checkpoint"
  | "compaction"
  | "handoff"
  | "fork"
  | "dynamic_tool";

/**
 * P6 turn item, flattened: every variant field is optional so each member of the domain's
 * discriminated union is assignable. Fields whose exact shape the domain may refine (`input`,
 * `output`, `steps`) are `unknown` and narrowed where read.
 */
export type TurnItem = {
  readonly id: TurnItemId;
  readonly runId: RunId | null;
  readonly runOrdinal?: number | null;
  readonly type: TurnItemType;
  readonly status?: string | null;
  readonly text?: string | null;
  readonly markdown?: string | null;
  readonly steps?: unknown;
  readonly fileName?: string | null;
  readonly additions?: number | null;
  readonly deletions?: number | null;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly exitCode?: number | null;
  readonly toolName?: string | null;
};

/** The provider adapter capabilities that decide between native and portable transfer. */
export type TransferCapabilities = {
  /** The adapter can fork a provider thread natively. */
  readonly nativeFork: boolean;
  /** The native fork can stop at a given turn (needs a native turn ref). */
  readonly forkAtTurn: boolean;
  /** The adapter can reload a provider thread that is not in memory from its persisted ref. */
  readonly resume: boolean;
};
