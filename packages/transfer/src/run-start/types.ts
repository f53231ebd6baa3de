import type {
  Command,
  ContextHandoffId,
  ContextTransferId,
  ProviderSessionId,
  ProviderThreadId,
  Run,
  ThreadId,
  ThreadState,
} from "@skein/domain";
import type { NativeTurnRecord } from "@skein/domain/provider";
import type { TransferCapabilities } from "../inputs.ts";
import type { ProviderThreadFailureReason, StartContextResolution } from "../resolution-types.ts";
import type { NetDiff } from "../brief/net-diff.ts";
import type { TransferInputs } from "./start-inputs.ts";

/** What the live runtime chosen for the run knows, as far as the start needs it. */
export type RuntimeFacts = {
  readonly providerSessionId: ProviderSessionId;
  /** Native threads this runtime has started, resumed or forked; others need a resume first. */
  readonly loadedThreads: ReadonlySet<string>;
  /** The runtime can reload a thread it has not loaded from its persisted ref. */
  readonly canResume: boolean;
  /** Other instances can be asked to let go of a thread their runtime holds. */
  readonly canAskPeers: boolean;
};

/** A native turn of the fork source, as the adapter's forkThread wants it. */
export type ForkTurn = NativeTurnRecord;

// ---------------------------------------------------------------- inputs: facts

/** A queued run is to start; `capabilities` is null when its provider is not configured. */
export type RunStartRequested = {
  type: "RunStartRequested";
  data: { threadId: ThreadId; run: Run; text: string; capabilities: TransferCapabilities | null };
};
/** The thread's committed state and the history of every thread its context reads. */
export type ContextLoaded = {
  type: "ContextLoaded";
  data: { state: ThreadState; inputs: TransferInputs };
};
/** The context again after `LoadCodeState`, with the net diffs read (none: an empty list). */
export type CodeStateLoaded = {
  type: "CodeStateLoaded";
  data: ContextLoaded["data"] & { netDiffs: NetDiff[] };
};
export type RuntimeReady = { type: "RuntimeReady"; data: RuntimeFacts };
export type ThreadStarted = { type: "ThreadStarted"; data: { nativeThreadRef: string } };
export type NativeForked = { type: "NativeForked"; data: { nativeThreadRef: string } };
export type NativeForkFailed = { type: "NativeForkFailed"; data: { reason: string } };
export type ThreadResumed = { type: "ThreadResumed"; data: Record<string, never> };
/**
 * `held`: another runtime holds the thread (Codex has one writer per thread). `instanceId`: the
 * Skein instance whose runtime tried, so a rebuild it causes can say where resume failed.
 */
export type ResumeFailed = {
  type: "ResumeFailed";
  data: { reason: string; held: boolean; instanceId: string | null };
};
export type StartAppended = { type: "StartAppended"; data: Record<string, never> };
/** The domain refused the start's append; `state` is the thread as committed now. */
export type StartRejected = { type: "StartRejected"; data: { error: Error; state: ThreadState } };

export type RunStartInput =
  | RunStartRequested
  | ContextLoaded
  | CodeStateLoaded
  | RuntimeReady
  | ThreadStarted
  | NativeForked
  | NativeForkFailed
  | ThreadResumed
  | ResumeFailed
  | StartAppended
  | StartRejected;

// ---------------------------------------------------------------- outputs: decisions

/** What made the previous resolution unusable; the next one takes it into account. */
export type StartFailure =
  | { kind: "native_fork"; transferId: ContextTransferId; reason: string }
  | {
      kind: "provider_thread";
      providerThreadId: ProviderThreadId;
      reason: ProviderThreadFailureReason;
      /** What the runtime said, for the label of the rebuild it causes (issue 14 item 5). */
      detail?: string;
    };

/** Read the thread and its context again (first, or after `after` failed). */
export type LoadContext = { type: "LoadContext"; data: { after: StartFailure | null } };
/**
 * Read the state of the work (git's net diffs) the resolved handoff shows, then load again:
 * asked only once a resolution builds a handoff, so a native fork or a plain turn reads no git.
 */
export type LoadCodeState = { type: "LoadCodeState"; data: ContextLoaded["data"] };
/** A live runtime for the run's provider in its workspace, to act on `resolution` with. */
export type EnsureRuntime = { type: "EnsureRuntime"; data: { resolution: Resolved } };
export type StartThread = { type: "StartThread"; data: Record<string, never> };
export type ForkNative = {
  type: "ForkNative";
  data: {
    nativeThreadRef: string;
    at: { turn: ForkTurn; history: ForkTurn[] } | null;
  };
};
/** Resume a native thread; a retry may first ask other instances to let go and wait. */
export type ResumeThread = {
  type: "ResumeThread";
  data: {
    providerThreadId: ProviderThreadId;
    nativeThreadRef: string;
    askPeersFirst: boolean;
    waitMs: number;
  };
};

/** The handoff the run's message carries. */
export type SentHandoff = { handoffId: ContextHandoffId; text: string };

/** Where the run executes and with what context, once the start is recorded. */
export type StartedRun = {
  providerThreadId: ProviderThreadId;
  nativeThreadRef: string;
  handoff: SentHandoff | null;
  transferId: ContextTransferId | null;
};

/**
 * The one append of a run start: provider thread, transfer, handoff and the run's start, all in
 * one transaction. `preview` names the preview the handoff was settled against, when the user
 * changing it meanwhile is a reason to settle again rather than fail.
 */
export type AppendStart = {
  type: "AppendStart";
  data: {
    commands: Command[];
    target: StartTarget;
    started: StartedRun;
    preview: { transferId: ContextTransferId; handoffId: ContextHandoffId | null } | null;
  };
};
/** Terminal: the run is recorded as started; start its provider turn. */
export type StartTurn = { type: "StartTurn"; data: StartedRun };
/** Terminal: the run cannot start; fail it with this text. */
export type RefuseRun = { type: "RefuseRun"; data: { failure: string } };
/** Terminal: an error nobody planned for; the runner rethrows it. */
export type AbortStart = { type: "AbortStart"; data: { error: Error } };

export type RunStartOutput =
  | LoadContext
  | LoadCodeState
  | EnsureRuntime
  | StartThread
  | ForkNative
  | ResumeThread
  | AppendStart
  | StartTurn
  | RefuseRun
  | AbortStart;

// ---------------------------------------------------------------- state

/** The provider thread the run will execute on, once known. */
export type StartTarget =
  | { kind: "new"; nativeThreadRef: string }
  | { kind: "forked"; nativeThreadRef: string }
  | { kind: "existing"; providerThreadId: ProviderThreadId; nativeThreadRef: string };

export type Resolved = Exclude<StartContextResolution, { kind: "unsupported" }>;

export type RunStartState = {
  request: RunStartRequested["data"] | null;
  /** Resolution rounds begun (one per LoadContext). */
  round: number;
  failures: StartFailure[];
  context: ContextLoaded["data"] | null;
  resolution: Resolved | null;
  runtime: RuntimeFacts | null;
  /** The native thread being resumed and how many resumes were tried. */
  resuming: {
    providerThreadId: ProviderThreadId;
    nativeThreadRef: string;
    attempts: number;
  } | null;
  target: StartTarget | null;
  append: AppendStart["data"] | null;
  rejections: number;
  done: boolean;
};
