import type { ContextTransferId, ProjectId, ThreadExportDocument, ThreadId } from "@skein/domain";
import type { TRPCError, TrackedEnvelope } from "@trpc/server";
import type { ForkOverlaps } from "../views/parallel.ts";
import type {
  DetailWindowInput,
  PendingRequestList,
  ProjectList,
  ProviderSessionsView,
  RawFrameRange,
  RawFramesView,
  ShellPageInput,
  ThreadDetailView,
  ThreadGraphView,
  ThreadShells,
  ThreadTimeline,
  TransferView,
} from "../views/reads.ts";
import type {
  LogPosition,
  RawStreamInput,
  RawStreamMessage,
  WatchMessage,
} from "../views/watches.ts";
import type { OrchestratorCommands } from "./commands.ts";
import type { SkeinNotifications } from "../views/notify.ts";

/**
 * The ports the router is written against: what a host (apps/api) provides for the procedures to
 * call. Every read and watch fails with a domain error (`NotFoundError`, …) the contract maps, or
 * with a host failure `SkeinServices.mapError` maps.
 */

/** The command side: everything but the host's own lifecycle. */
export type SkeinCommands = Omit<OrchestratorCommands, "shutdown">;

/** The read side at the head of the log; each answer is one consistent snapshot (S2). */
export interface SkeinReads {
  /** The log's head sequence. */
  headSequence(): Promise<number>;
  projects(): Promise<ProjectList>;
  /** One page of the thread list (B7); archived threads only when `archived` asks for them. */
  shells(page: ShellPageInput): Promise<ThreadShells>;
  /** One window of the thread's runs (B7): the latest 50 unless `window` says otherwise. */
  detail(threadId: ThreadId, window?: DetailWindowInput): Promise<ThreadDetailView>;
  graph(threadId: ThreadId): Promise<ThreadGraphView>;
  transfer(transferId: ContextTransferId): Promise<TransferView>;
  pendingRequests(threadId?: ThreadId): Promise<PendingRequestList>;
  /** P4: the provider sessions hosting the thread's provider threads. */
  providerSessions(threadId: ThreadId): Promise<ProviderSessionsView>;
  threadExists(threadId: ThreadId): Promise<boolean>;
  projectExists(projectId: ProjectId): Promise<boolean>;
  /** B8: the events of the thread a person can travel back to (the scrubber's stops). */
  timeline(threadId: ThreadId): Promise<ThreadTimeline>;
  /** The thread, its sources, project and provider sessions as one document. */
  exportThread(threadId: ThreadId): Promise<ThreadExportDocument>;
  /** B8/E18: the raw provider frames of a run (or one of its nodes), in log order. */
  rawFrames(range: RawFrameRange): Promise<RawFramesView>;
}

/** Time travel (B8): the same reads as of an earlier log sequence. */
export interface SkeinPastReads {
  shells(atSequence: number, page: ShellPageInput): Promise<ThreadShells>;
  detail(
    threadId: ThreadId,
    atSequence: number,
    window?: DetailWindowInput,
  ): Promise<ThreadDetailView>;
  graph(threadId: ThreadId, atSequence: number): Promise<ThreadGraphView>;
}

/** A resumable watch: tracked messages, ended by `signal` (the client left) or the host. */
export type TrackedStream<T> = AsyncGenerator<TrackedEnvelope<T>, void, unknown>;

/** The subscriptions: a snapshot (or a resume after `lastEventId`), then what changes it. */
export interface SkeinWatches {
  shells(
    input: Omit<ShellPageInput, "cursor"> & { lastEventId?: string | null },
    signal: AbortSignal | undefined,
  ): TrackedStream<WatchMessage<ThreadShells>>;
  detail(
    input: { threadId: ThreadId; lastEventId?: string | null; window?: DetailWindowInput },
    signal: AbortSignal | undefined,
  ): TrackedStream<WatchMessage<ThreadDetailView>>;
  /** P3: the thread's graph, then every event of its stream and of the provider sessions. */
  graph(
    input: { threadId: ThreadId; lastEventId?: string | null },
    signal: AbortSignal | undefined,
  ): TrackedStream<WatchMessage<ThreadGraphView>>;
  /** P5 (one thread's or every thread's), then the events that can change a pending request. */
  pendingRequests(
    input: { threadId?: ThreadId; lastEventId?: string | null },
    signal: AbortSignal | undefined,
  ): TrackedStream<WatchMessage<PendingRequestList>>;
  /** P4 for one thread, then its stream's and the provider sessions' events. */
  providerSessions(
    input: { threadId: ThreadId; lastEventId?: string | null },
    signal: AbortSignal | undefined,
  ): TrackedStream<WatchMessage<ProviderSessionsView>>;
  /** The raw log (optionally one thread's stream), replaying any gap however large. */
  events(
    input: { threadId?: ThreadId; lastEventId?: string | null },
    signal: AbortSignal | undefined,
  ): TrackedStream<WatchMessage<LogPosition>>;
  /** A run's raw frames so far, then each new one; ends once the run has ended. */
  raw(input: RawStreamInput, signal: AbortSignal | undefined): TrackedStream<RawStreamMessage>;
  /** B9: forks' changed files and overlaps, sent at once and whenever they change. */
  forkOverlaps(
    input: { threadIds: ThreadId[]; intervalMs?: number },
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ForkOverlaps, void, unknown>;
}

/** B4: whether a folder may be a project's workspace. */
export interface WorkspaceCheck {
  /**
   * Resolves when `workspaceRoot` exists and is usable, with its real path (symlinks resolved)
   * when the host holds projects by it (issue 35); a ValidationError naming why not.
   */
  assertUsable(workspaceRoot: string): Promise<string | undefined>;
}

/** Everything a host hands the router, once, for every call. */
export interface SkeinServices {
  /** The host's version, reported by `health`. */
  readonly version: string;
  readonly commands: SkeinCommands;
  readonly reads: SkeinReads;
  readonly pastReads: SkeinPastReads;
  readonly watches: SkeinWatches;
  readonly workspaces: WorkspaceCheck;
  /** B20: Web Push subscriptions; null where the host has none (tests, no data dir). */
  readonly notifications?: SkeinNotifications | null;
  /**
   * The host's own failures (its store's conflicts, shutdown) as tRPC errors; `null` for anything
   * it does not know, which tRPC reports as INTERNAL_SERVER_ERROR. Domain errors never get here.
   */
  mapError(error: unknown): TRPCError | null;
}
