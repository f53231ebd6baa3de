import type { ProjectionTable, ProjectionWrite } from "./projection-types.ts";
import type { RuntimeLeases } from "./runtime-leases.ts";
import type { StoredEvent } from "@skein/domain";

/** The store envelope around a domain event; its type lives in the domain (the contract names it). */
export type { StoredEvent };

/** A domain event before the store has placed it. `data` must be JSON-serializable. */
export type NewEvent = { type: string; data: unknown };

/**
 * A number is the stream version the caller last saw: the append succeeds only if the stream is
 * still there (0 = the stream must not exist yet). `"any"` skips the check; -1 is accepted as an
 * alias for `"any"` (the older spelling in docs/design.md).
 */
/** One event a raw provider frame led to (B8). */
export type RawSequence = { rawEventId: string; sequence: number; streamId: string };

export type ExpectedVersion = number | "any";

export type AppendOptions = {
  /** Idempotency key (S4): an already applied command id appends nothing and returns its receipt. */
  commandId?: string;
  /** Row writes applied in the same transaction as the events. */
  projections?: readonly ProjectionWrite[];
  /** Stored with the command id and returned verbatim (as JSON) to a retry. */
  receipt?: unknown;
  /**
   * B3: what the command id answers. A retry under the same id with another procedure or
   * payload hash is refused with ReceiptConflictError instead of replaying the receipt.
   */
  binding?: ReceiptBinding;
  /**
   * Appends only while `owner` holds the runtime lease `lease`, judged in the append's own
   * transaction: once another instance has taken the thread over, a run it left behind can no
   * longer write, however fast it streams (LeaseFenceError, nothing appended).
   */
  fence?: AppendFence;
};

/** The runtime lease an append is fenced by, and the instance that must hold it. */
export type AppendFence = { lease: string; owner: string };

/** The procedure a command id answered and a hash of its normalized payload (B3). */
export type ReceiptBinding = { procedure: string; payloadHash: string };

/** B3: a command's intent, recorded before its first outside effect. */
export type CommandIntent = ReceiptBinding & {
  commandId: string;
  /** JSON-serializable: what the command decided before its effects. */
  data: unknown;
  /** ISO-8601, store clock. */
  createdAt: string;
};

export type AppendResult = {
  firstSequence: number;
  lastSequence: number;
  /** The stream's version after this append (= the version of its last event). */
  streamVersion: number;
  /** The receipt passed with the command (or `null`); for a duplicate, the stored one. */
  receipt: unknown;
  /** True when the command id had already been applied and nothing was appended. */
  duplicate: boolean;
};

/**
 * B3: the answer of a command whose effects are the sum of its steps (each appended under an id
 * derived from its own), stored under its own id once they are done (`EventStore.recordReceipt`).
 */
export type CommandReceipt = ReceiptBinding & {
  commandId: string;
  /** The stream the command is about (the thread it was asked on); nothing is appended to it. */
  streamId: string;
  /** The log position its answer reflects: the last sequence its steps wrote (or replayed). */
  lastSequence: number;
  /** Stored as JSON and returned verbatim to a retry, as an append's receipt is. */
  receipt: unknown;
};

/**
 * A command id's stored answer. An append's receipt spans its events (`firstSequence` through
 * `lastSequence`, leaving `streamId` at `streamVersion`). A receipt recorded without events of
 * its own (`recordReceipt`) spans none: `firstSequence` is `lastSequence + 1`, and
 * `streamVersion` is the version `streamId` had at `lastSequence`.
 */
export type StoredReceipt = {
  streamId: string;
  firstSequence: number;
  lastSequence: number;
  streamVersion: number;
  receipt: unknown;
  /** Empty strings for receipts stored before receipts were bound (B3). */
  procedure: string;
  payloadHash: string;
};

/** A projection row as stored; `data` is the parsed JSON. */
export type ProjectionRow = {
  id: string;
  threadId: string | null;
  sortKey: number;
  runOrdinal: number | null;
  status: string | null;
  data: unknown;
  updatedSequence: number;
};

export type ProjectionFilter = {
  /** `null` selects rows without a thread. */
  threadId?: string | null;
  /** One status, or any of several. */
  status?: string | readonly string[];
  /** Inclusive upper bound on `sort_key` (P7 fork cut-off). */
  maxSortKey?: number;
  /** Keeps rows with `run_ordinal IS NULL OR run_ordinal <= maxRunOrdinal` (P7). */
  maxRunOrdinal?: number;
  /** Inclusive lower bound on `sort_key` (B7 windows). */
  minSortKey?: number;
  /** Keeps rows with `run_ordinal IS NULL OR run_ordinal >= minRunOrdinal` (B7 windows). */
  minRunOrdinal?: number;
  /** Only rows with exactly this `run_ordinal` (never rows without one). */
  runOrdinal?: number;
  /** Newest first: `sort_key DESC, id DESC` (with `limit`, the last rows). */
  descending?: boolean;
  limit?: number;
};

/** B7: one page of the thread list (P1), newest activity first; see `ProjectionQuery.threadPage`. */
export type ThreadPageFilter = {
  projectId?: string;
  visibility: "active" | "archived" | "deleted";
  /** Case-insensitive substring of the title. */
  query?: string;
  /** The last row of the previous page: the page continues strictly after it. */
  after?: { activeAt: string; id: string };
  limit: number;
};

/**
 * Issue 29: a thread-list page (same order, visibility, project and cursor as `ThreadPageFilter`)
 * of the threads with a finished message whose text holds `query` (case-insensitive substring,
 * three characters or more: the trigram index cannot narrow shorter ones).
 */
export type MessageThreadPageFilter = Omit<ThreadPageFilter, "query"> & { query: string };

/**
 * B16: the titles in a project (active or archived threads) a fork's sibling number is counted
 * from: `stem` itself (1) and "stem (n)" with one to nine digits (n); case-sensitive.
 */
export type SiblingFilter = { projectId: string; stem: string };

/** Issue 26: a port range, and the thread whose own port does not count. */
export type PortFilter = { from: number; to: number; except?: string };

/** B16: one title in a project, matched exactly (case-sensitive). */
export type TitleFilter = { projectId: string; title: string };

/** A `threads` row found by one of its messages, with that message's text around the match. */
export type MessageThreadRow = { row: ProjectionRow; excerpt: string };

/** Read helpers available inside `snapshot()`; every call sees the same committed state. */
export interface ProjectionQuery {
  get(table: ProjectionTable, id: string): Promise<ProjectionRow | undefined>;
  /** Ordered by `sort_key`, then `id`. */
  list(table: ProjectionTable, filter?: ProjectionFilter): Promise<ProjectionRow[]>;
  count(table: ProjectionTable, filter?: Omit<ProjectionFilter, "limit">): Promise<number>;
  /**
   * B7: `threads` rows ordered by (`lastActivityAt`, id) descending, filtered by project,
   * visibility and title, read through the listing index so a page costs what it holds.
   */
  threadPage(filter: ThreadPageFilter): Promise<ProjectionRow[]>;
  /**
   * Issue 29: threads whose messages match, in page order. Bounded: only the newest
   * `MESSAGE_SEARCH_SCAN` matching messages are looked at, so a word said everywhere costs the
   * same as a rare one (the oldest of its threads are then not found by their messages).
   */
  messageThreadPage(filter: MessageThreadPageFilter): Promise<MessageThreadRow[]>;
  /**
   * B16: the highest sibling number among the titles `SiblingFilter` names, 0 when there is none;
   * computed by the store over a range of the (project, title) index, not a search.
   */
  highestSibling(filter: SiblingFilter): Promise<number>;
  /**
   * B16: whether an active or archived thread of the project has exactly this title; one read of
   * the (project, title) index, so a fork can check the number it means to give in constant time.
   */
  titleTaken(filter: TitleFilter): Promise<boolean>;
  /**
   * Issue 26: the ports from `from` to `to` that open (active) threads hold, but `except`'s,
   * ascending and each once; read from the (visibility, port) index, not from the threads' rows.
   */
  portsHeld(filter: PortFilter): Promise<number[]>;
  /**
   * T9/E9: the ids of the sub-agent child threads of `threadId` that are not deleted, in id
   * order; read from the subagent_of index, not from every thread's row.
   */
  subagentChildren(threadId: string): Promise<string[]>;
}

/** An aggregate's serialized state after stream version `version` (whose event had `sequence`). */
export type AggregateSnapshot = {
  streamId: string;
  version: number;
  sequence: number;
  /** JSON text, opaque to the store. */
  state: string;
};

/**
 * B8: a stream's past-read fold (state and projection rows) after stream version `version`,
 * kept so a past read after a restart continues from it instead of folding the whole stream.
 */
export type FoldCheckpoint = {
  streamId: string;
  version: number;
  sequence: number;
  /** Who wrote it and how; a reader asks only for its own format, so older ones are never read. */
  format: string;
  /** Opaque to the store. */
  body: string;
};

/** Where a fold checkpoint stands, without its body. */
export type FoldCheckpointPosition = { version: number; sequence: number };

export type Snapshot<T> = { snapshotSequence: number; data: T };

export type SnapshotOptions = {
  /**
   * What answers the reads: the driver's prepared statements (the default, for hot reads), or
   * the generated Prisma client (cold read models: projects, admin lists), which costs a few
   * times more per query (packages/db bench: prisma_*_ratio rows).
   */
  through?: "driver" | "prisma";
};

/** The live feed's load: attached subscribers and the most events one of them has not taken. */
export type BusStats = { subscribers: number; maxBacklog: number };

export type SubscriptionFilter = { streamIds: readonly string[] } | { streamPrefix: string };

export type SubscribeOptions = {
  /** Deliver events with `sequence > afterSequence` (a snapshot's `snapshotSequence`). */
  afterSequence: number;
  filter?: SubscriptionFilter;
  /** Undelivered events held for a slow consumer before it is cut off; default from the store. */
  bufferSize?: number;
};

/**
 * Every committed event after the cursor, exactly once, in sequence order (S2). Iteration ends
 * normally after `close()` and throws `SubscriberOverflow` when the consumer fell too far behind.
 */
export interface EventSubscription extends AsyncIterable<StoredEvent> {
  close(): void;
}

/**
 * The event log plus projection tables. Async throughout so that a PostgreSQL implementation can
 * sit behind the same interface.
 */
export interface EventStore {
  append(
    streamId: string,
    expectedVersion: ExpectedVersion,
    events: readonly NewEvent[],
    options?: AppendOptions,
  ): Promise<AppendResult>;
  readAll(afterSequence: number, limit?: number): Promise<StoredEvent[]>;
  /** A stream's events after `afterSequence` and up to `upToSequence` (inclusive), in order. */
  readStream(
    streamId: string,
    afterSequence?: number,
    upToSequence?: number,
  ): Promise<StoredEvent[]>;
  /** Current version of a stream; 0 if it has no events. */
  streamVersion(streamId: string): Promise<number>;
  /** Highest committed sequence; 0 for an empty log. */
  headSequence(): Promise<number>;
  /**
   * The stored result of a command id already applied (S4), or null. Lets a caller answer a
   * retry before deciding again, since a repeated command may no longer be valid.
   */
  findReceipt(commandId: string): Promise<StoredReceipt | null>;
  /**
   * B8/E18: the committed events each raw provider frame led to, by `rawEventId` (an event
   * names its frame as `data.rawEventId`), in sequence order. Unknown ids are absent.
   */
  rawSequences(rawEventIds: readonly string[]): Promise<RawSequence[]>;
  /**
   * B3: stores the receipt of a command that appended nothing under its own id (its steps did),
   * so a retry replays it and the id stays bound to its procedure and payload. Insert-if-absent:
   * an id already answered with the same binding keeps (and returns) its first receipt; another
   * binding is refused with ReceiptConflictError and nothing changes. Clears the command's intent,
   * as an append's receipt does. A `lastSequence` past the log's head is an InvalidAppendError.
   */
  recordReceipt(receipt: CommandReceipt): Promise<StoredReceipt>;
  /**
   * B3: records that a command's outside effects are starting. False (nothing written) when an
   * intent under this command id is already recorded.
   */
  recordIntent(intent: Omit<CommandIntent, "createdAt">): Promise<boolean>;
  /** The recorded intent of a command id, or null. */
  findIntent(commandId: string): Promise<CommandIntent | null>;
  /** Every recorded intent, oldest first (recovery after a crash). */
  listIntents(): Promise<CommandIntent[]>;
  /** Forgets an intent once its command is finished or abandoned. */
  clearIntent(commandId: string): Promise<void>;
  /** Runs `read` against one consistent state and reports the sequence that state reflects. */
  snapshot<T>(
    read: (query: ProjectionQuery) => Promise<T> | T,
    options?: SnapshotOptions,
  ): Promise<Snapshot<T>>;
  subscribe(options: SubscribeOptions): EventSubscription;
  /** This process's live subscribers and their largest backlog (cheap; for metrics). */
  busStats(): BusStats;
  /** Which instance owns which thread's provider runtime (in memory for the embedded store). */
  readonly runtimeLeases: RuntimeLeases;
  /** Issue 20: the latest stored state of an aggregate stream, or null. */
  readAggregateSnapshot(streamId: string): Promise<AggregateSnapshot | null>;
  /**
   * Stores an aggregate's state at a committed stream version (replacing an older one; a newer
   * one already stored is kept). A cache of the log: losing it only costs a longer replay.
   */
  saveAggregateSnapshot(snapshot: AggregateSnapshot): Promise<void>;
  /**
   * B8: the stored fold checkpoint of `format` nearest below or at `upToSequence` whose version
   * is above `aboveVersion` (what the caller already holds), or null.
   */
  readFoldCheckpoint(
    streamId: string,
    format: string,
    upToSequence: number,
    aboveVersion?: number,
  ): Promise<FoldCheckpoint | null>;
  /**
   * Stores a fold checkpoint at a committed position (an existing one there is kept), drops the
   * stream's checkpoints of other formats, and thins the rest to `keep` (see `checkpointsToThin`).
   * A cache of the log: losing one only costs a longer fold.
   */
  saveFoldCheckpoint(checkpoint: FoldCheckpoint, keep: number): Promise<void>;
  /** The positions of a stream's stored fold checkpoints of `format`, oldest first. */
  foldCheckpointPositions(streamId: string, format: string): Promise<FoldCheckpointPosition[]>;
  /**
   * Issue 35: why the store cannot take writes now (its data file deleted or damaged), in
   * words; null when it can. Health reports it.
   */
  fault(): string | null;
  /** Flushes queued appends, ends subscriptions and releases the database. */
  close(): Promise<void>;
}
