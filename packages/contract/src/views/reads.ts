import type {
  ContextHandoff,
  ContextTransfer,
  ExecutionGraph,
  ExecutionNode,
  NodeId,
  PendingRequestView,
  Project,
  ProviderSession,
  ProviderThread,
  ProviderTurn,
  RunId,
  ThreadDetail,
  ThreadId,
  ThreadShell,
} from "@skein/domain";

/** Every read is one consistent store snapshot; `snapshotSequence` is the cursor it reflects (S2). */
export type Snapshotted<T> = { snapshotSequence: number } & T;

/** B7: which page of the sidebar to read. */
export type ShellPageInput = {
  projectId?: string;
  /**
   * Case-insensitive substring of the title or (three characters or more, issue 29) of a
   * finished message of the thread.
   */
  query?: string;
  /** `true` lists only the archived threads; the default leaves them out. */
  archived?: boolean;
  /** A previous page's `nextCursor`. */
  cursor?: string;
  limit?: number;
};

export type ShellPage = {
  threads: ThreadShell[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
  /**
   * Issue 29: with a `query`, the threads found by a message rather than their title, each with
   * that message's text around the match (the newest such message). Absent without a query.
   */
  excerpts?: Record<string, string>;
};

/**
 * B7: which runs a detail read holds. The latest `limit` runs by default; `before`/`after` take a
 * cursor from a previous window's `before`/`after`; `aroundRun` centres the window on one of the
 * thread's own runs. A fork's conversation continues its source's (P7), so a window reaches into
 * the inherited runs when the fork's own runs do not fill it.
 */
export type DetailWindowInput = {
  limit?: number;
  before?: string;
  after?: string;
  aroundRun?: number;
};

export type DetailWindow = {
  /** The thread's own runs in this read: ordinals `fromRunOrdinal..toRunOrdinal` (none if to < from). */
  fromRunOrdinal: number;
  toRunOrdinal: number;
  /** The thread's highest run ordinal. */
  runCount: number;
  /** Pass as `before` to read the runs before this window (inherited ones included); null at the start. */
  before: string | null;
  /** Pass as `after` to read the runs after this window; null when it reaches the latest run. */
  after: string | null;
};

/**
 * P2 with P5's `answerable` flag on each pending request, for one window of runs (B7): every list
 * holds what the window's runs hold, and `window` says which runs those are and how to page.
 */
export type ThreadDetailData = Omit<ThreadDetail, "pendingRequests"> & {
  pendingRequests: PendingRequestView[];
  window: DetailWindow;
};

/** P3 (developer view): the run → attempt → node trees plus every provider ref behind them. */
export type ThreadGraphData = {
  thread: ThreadShell;
  /** Runs with their attempts and node trees (`assembleExecutionGraph`). */
  runs: ExecutionGraph["runs"];
  /** Every execution node of the thread, flat, in start order. */
  nodes: ExecutionNode[];
  providerSessions: ProviderSession[];
  providerThreads: ProviderThread[];
  providerTurns: ProviderTurn[];
  transfers: ContextTransfer[];
  handoffs: ContextHandoff[];
};

/** P4 for one thread: the sessions hosting its provider threads, each with those threads. */
export type ProviderSessionsData = {
  sessions: { session: ProviderSession; providerThreads: ProviderThread[] }[];
};

export type TransferData = {
  transfer: ContextTransfer;
  /** The handoff in effect: the one the resolution names, else the newest not superseded. */
  handoff: ContextHandoff | null;
  /** Every handoff built for this transfer, oldest first (regenerations and edits, T11). */
  handoffs: ContextHandoff[];
};

export type ProjectList = Snapshotted<{ projects: Project[] }>;
export type ThreadShells = Snapshotted<ShellPage>;
export type ThreadDetailView = Snapshotted<ThreadDetailData>;
export type ThreadGraphView = Snapshotted<ThreadGraphData>;
export type TransferView = Snapshotted<TransferData>;
export type PendingRequestList = Snapshotted<{ requests: PendingRequestView[] }>;
export type ProviderSessionsView = Snapshotted<ProviderSessionsData>;

export type TimelinePoint = { sequence: number; type: string; recordedAt: string };

export type ThreadTimeline = {
  /** The log's head when read: the "live" end of the scrubber. */
  headSequence: number;
  /** Events of the thread's own stream in log order (thinned evenly past the cap). */
  points: TimelinePoint[];
  /** How many events the thread's stream holds; more than `points.length` when thinned. */
  total: number;
};

/** One raw provider frame (E18) and the store sequences it led to (B8). */
export type RawFrameView = {
  rawEventId: string;
  /** The provider's id: with it a saved answer is a slice `pnpm skein replay` takes. */
  provider: string | null;
  providerSessionId: string | null;
  direction: string | null;
  messageKind: string | null;
  method: string | null;
  jsonRpcId: string | number | null;
  payload: unknown;
  /** When the adapter saw the frame; null for records written before it was kept. */
  observedAt: string | null;
  /** The first committed event the frame led to; null for frames that changed nothing. */
  sequence: number | null;
  /** Every committed event the frame led to, in order. */
  sequences: number[];
};

export type RawFramesView = {
  threadId: ThreadId;
  runId: RunId;
  nodeId: NodeId | null;
  /** False when this server keeps no raw log (then `frames` is empty). */
  logged: boolean;
  frames: RawFrameView[];
  /** More frames lie in the range than `MAX_RAW_FRAMES`. */
  truncated: boolean;
};

/** Which run (or node of it) `events.raw` / `events.watchRaw` read frames of. */
export type RawFrameRange = { threadId: ThreadId; runId: RunId; nodeId?: NodeId | undefined };
