import type { ProviderThreadCoverage } from "./coverage.ts";
import type {
  CheckpointId,
  Checkpoint,
  ContextHandoff,
  ContextHandoffKind,
  ContextHandoffStrategy,
  ContextSourcePoint,
  ContextTransfer,
  ContextTransferId,
  ContextTransferType,
  ProviderKind,
  ProviderThread,
  ProviderThreadId,
  Run,
  ThreadId,
  TransferCapabilities,
  TurnItem,
} from "./inputs.ts";
import type { OrdinalRange } from "./ordinal-ranges.ts";
import type { RunSegment } from "./run-history.ts";

export type ProviderThreadFailureReason = "resume_failed" | "incompatible_configuration";

export type ResolveStartContextInput = {
  readonly threadId: ThreadId;
  /** Provider chosen for the run being started. */
  readonly provider: ProviderKind;
  /** The new user message; carried into the handoff plan, never part of the decision. */
  readonly message: string;
  /** Capabilities of the chosen provider's adapter. */
  readonly capabilities: TransferCapabilities;
  /** Transfers targeting the thread; only `pending` ones are resolved. */
  readonly pendingTransfers: readonly ContextTransfer[];
  /** Provider threads bound to the thread (others are ignored). */
  readonly providerThreads: readonly ProviderThread[];
  /** The thread's runs plus the runs of any thread a transfer or the lineage reads from. */
  readonly runs: readonly Run[];
  /** Applied fork/subagent_spawn transfers that created this thread and its ancestors. */
  readonly lineage?: readonly ContextTransfer[];
  /** Needed only for checkpoint source points. */
  readonly checkpoints?: readonly Checkpoint[];
  /** Needed only for turn-item source points. */
  readonly turnItems?: readonly TurnItem[];
  /** The handoffs named by the provider threads, to verify coverage gaps (optional). */
  readonly handoffs?: readonly ContextHandoff[];
  /** A user-edited handoff text; it replaces the generated summary verbatim. */
  readonly manualContext?: string | null;
  /** What the caller already tried and saw fail, so the next resolution avoids it. */
  readonly knownFailures?: {
    readonly nativeForkFailedTransferIds?: readonly ContextTransferId[];
    readonly providerThreads?: readonly {
      readonly providerThreadId: ProviderThreadId;
      readonly reason: ProviderThreadFailureReason;
    }[];
  };
  readonly policy?: {
    /** Most handoffs one provider thread may accumulate before a full rebuild (default 4). */
    readonly maxHandoffsPerProviderThread?: number;
  };
};

/** A provider_handoff transfer the caller records before building its handoff (T6, T7). */
export type TransferDraft = {
  readonly type: "provider_handoff";
  readonly sourceThreadId: ThreadId;
  readonly targetThreadId: ThreadId;
  readonly sourcePoint: ContextSourcePoint;
  readonly basePoint: ContextSourcePoint | null;
  readonly sourceProvider: ProviderKind | null;
  readonly targetProvider: ProviderKind;
};

export type ExistingTransferRef = {
  readonly kind: "existing";
  readonly transferId: ContextTransferId;
  readonly type: ContextTransferType;
};

export type TransferRef =
  | ExistingTransferRef
  | { readonly kind: "create"; readonly draft: TransferDraft };

/** Continue (resuming first when `resume`) an existing provider thread. */
export type ContinueTarget = {
  readonly action: "continue";
  readonly providerThreadId: ProviderThreadId;
  readonly resume: boolean;
};

/** Start a fresh provider thread, optionally replacing one that cannot be used. */
export type StartNewTarget = {
  readonly action: "start_new";
  readonly replacesProviderThreadId: ProviderThreadId | null;
};

/** What to pass to `buildHandoff` (spread it in, with runs, turn items and budget). */
export type HandoffPlan = {
  readonly strategy: ContextHandoffStrategy;
  /** E14 kind, also the E13 resolution strategy to record on the transfer. */
  readonly kind: ContextHandoffKind;
  readonly selection: readonly RunSegment[];
  readonly coveredRunOrdinals: OrdinalRange | null;
  readonly checkpointId: CheckpointId | null;
  readonly newMessage: string;
  readonly manualText: string | null;
};

/** Why a handoff is built from app history instead of a native fork or a delta. */
export type PortableReason =
  | "manual_context"
  | "provider_differs"
  | "native_fork_unsupported"
  | "fork_at_turn_unsupported"
  | "no_native_ref"
  | "native_fork_failed"
  | "no_provider_thread"
  | ProviderThreadFailureReason
  | "not_resumable"
  | "no_native_thread_ref"
  | "resume_unsupported"
  | "coverage_hole"
  | "too_many_handoffs";

export type UnsupportedReason =
  | "multiple_pending_transfers"
  | "target_provider_mismatch"
  | "invalid_transfer"
  | "seed_after_first_run"
  | "source_point_not_found"
  | "source_point_unstable"
  | "nothing_to_transfer";

export type NativeForkSource = {
  readonly sourceThreadId: ThreadId;
  readonly sourceProvider: ProviderKind;
  /** The app's ProviderThread behind the source run, when known. */
  readonly sourceProviderThreadId: ProviderThreadId | null;
  readonly providerThreadRef: string;
  /** Inclusive fork boundary (C1). */
  readonly providerTurnRef: string;
  readonly sourceRunOrdinal: number | null;
};

export type StartContextResolution =
  | {
      /** Nothing to transfer: the target already knows everything (or there is nothing yet). */
      readonly kind: "none";
      /** A pending transfer this run consumes without building anything. */
      readonly transfer: ExistingTransferRef | null;
      readonly target: ContinueTarget | StartNewTarget;
      readonly coverage: ProviderThreadCoverage | null;
    }
  | {
      readonly kind: "native";
      readonly transfer: ExistingTransferRef;
      readonly fork: NativeForkSource;
    }
  | {
      readonly kind: "portable";
      readonly transfer: TransferRef;
      readonly target: StartNewTarget;
      readonly handoff: HandoffPlan;
      readonly reason: PortableReason;
    }
  | {
      readonly kind: "delta";
      readonly transfer: TransferRef;
      readonly target: ContinueTarget;
      readonly handoff: HandoffPlan;
      /** Runs the target missed (T7), or a fork's changes since its base point (T8, T9). */
      readonly basis: "coverage_gap" | "base_to_source";
      readonly coverage: ProviderThreadCoverage;
    }
  | {
      /** Fail the run before any provider work starts. */
      readonly kind: "unsupported";
      readonly reason: UnsupportedReason;
      readonly detail: string;
      readonly transferIds: readonly ContextTransferId[];
    };
