import type { EventBus } from "./bus/event-bus.ts";
import { InvalidAppendError, StoreClosedError } from "./errors.ts";
import type {
  AggregateSnapshot,
  AppendOptions,
  BusStats,
  CommandIntent,
  CommandReceipt,
  AppendResult,
  EventSubscription,
  ExpectedVersion,
  FoldCheckpoint,
  FoldCheckpointPosition,
  NewEvent,
  ProjectionQuery,
  RawSequence,
  Snapshot,
  SnapshotOptions,
  StoredEvent,
  StoredReceipt,
  SubscribeOptions,
} from "./event-store.ts";
import { type PreparedAppend, prepareAppend } from "./prepare-append.ts";
import { type PreparedReceipt, prepareReceipt } from "./command-receipt.ts";
import type { PrismaSnapshots } from "./prisma/prisma-snapshots.ts";

type MaybePromise<T> = T | Promise<T>;

/** The log reads each database answers its own way (SQLite synchronously, PostgreSQL pooled). */
export interface LogReads {
  readAll(afterSequence: number, limit?: number): MaybePromise<StoredEvent[]>;
  readStream(
    streamId: string,
    afterSequence?: number,
    upToSequence?: number,
  ): MaybePromise<StoredEvent[]>;
  streamVersion(streamId: string): MaybePromise<number>;
  headSequence(): MaybePromise<number>;
  findReceipt(commandId: string): MaybePromise<StoredReceipt | null>;
  rawSequences(rawEventIds: readonly string[]): MaybePromise<RawSequence[]>;
}

/** B3 command intents, each database its own way. */
export interface IntentTable {
  record(intent: Omit<CommandIntent, "createdAt">, createdAt: string): MaybePromise<boolean>;
  find(commandId: string): MaybePromise<CommandIntent | null>;
  list(): MaybePromise<CommandIntent[]>;
  clear(commandId: string): MaybePromise<void>;
}

/**
 * B3: receipts recorded without events, each database its own way: in one transaction ordered
 * with appends, the row inserted unless the id has one (kept, or refused for another binding)
 * and the command's intent cleared.
 */
export interface ReceiptTable {
  record(receipt: PreparedReceipt): MaybePromise<StoredReceipt>;
}

/** Issue 20: stored aggregate states, each database its own way. */
export interface AggregateSnapshotTable {
  read(streamId: string): MaybePromise<AggregateSnapshot | null>;
  save(snapshot: AggregateSnapshot): MaybePromise<void>;
}

/** B8: stored past-read fold checkpoints, each database its own way. */
export interface FoldCheckpointTable {
  read(
    streamId: string,
    format: string,
    upToSequence: number,
    aboveVersion: number,
  ): MaybePromise<FoldCheckpoint | null>;
  /** Inserts (keeping an existing one), drops other formats and thins, in one transaction. */
  save(checkpoint: FoldCheckpoint, keep: number): MaybePromise<void>;
  positions(streamId: string, format: string): MaybePromise<FoldCheckpointPosition[]>;
}

/** The JSON text an intent's data is stored as; refuses what JSON cannot hold. */
export function intentJson(intent: Omit<CommandIntent, "createdAt">): string {
  if (typeof intent.commandId !== "string" || intent.commandId === "") {
    throw new InvalidAppendError("intent: commandId must be a non-empty string");
  }
  try {
    return JSON.stringify(intent.data) ?? "null";
  } catch (error) {
    throw new InvalidAppendError(`intent ${intent.commandId}: data is not JSON: ${String(error)}`);
  }
}

/**
 * What the SQLite and PostgreSQL stores share: every public call checks the store is open and
 * goes to one of its parts (the log reader, the group commit, the snapshot reader, the bus).
 * Opening, closing and the parts themselves are each database's own.
 */
export abstract class StoreBase {
  protected closed = false;
  protected abstract readonly events: LogReads;
  protected abstract readonly commits: { enqueue(append: PreparedAppend): Promise<AppendResult> };
  protected abstract readonly snapshots: {
    snapshot<T>(read: (query: ProjectionQuery) => Promise<T> | T): Promise<Snapshot<T>>;
  };
  protected abstract readonly bus: EventBus;
  protected abstract readonly intents: IntentTable;
  protected abstract readonly receipts: ReceiptTable;
  protected abstract readonly aggregates: AggregateSnapshotTable;
  protected abstract readonly foldCheckpoints: FoldCheckpointTable;
  /** Snapshots through the generated Prisma client (`snapshot(read, { through: "prisma" })`). */
  protected abstract readonly prismaReads: PrismaSnapshots;

  get subscriberCount(): number {
    return this.bus.subscriberCount;
  }

  busStats(): BusStats {
    return this.bus.stats();
  }

  async append(
    streamId: string,
    expectedVersion: ExpectedVersion,
    events: readonly NewEvent[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.assertOpen();
    return this.commits.enqueue(prepareAppend(streamId, expectedVersion, events, options));
  }

  async readAll(afterSequence: number, limit?: number): Promise<StoredEvent[]> {
    this.assertOpen();
    return this.events.readAll(afterSequence, limit);
  }

  async readStream(
    streamId: string,
    afterSequence?: number,
    upToSequence?: number,
  ): Promise<StoredEvent[]> {
    this.assertOpen();
    return this.events.readStream(streamId, afterSequence, upToSequence);
  }

  async streamVersion(streamId: string): Promise<number> {
    this.assertOpen();
    return this.events.streamVersion(streamId);
  }

  async headSequence(): Promise<number> {
    this.assertOpen();
    return this.events.headSequence();
  }

  async findReceipt(commandId: string): Promise<StoredReceipt | null> {
    this.assertOpen();
    return this.events.findReceipt(commandId);
  }

  async rawSequences(rawEventIds: readonly string[]): Promise<RawSequence[]> {
    this.assertOpen();
    if (rawEventIds.length === 0) return [];
    return this.events.rawSequences(rawEventIds);
  }

  async recordReceipt(receipt: CommandReceipt): Promise<StoredReceipt> {
    this.assertOpen();
    return this.receipts.record(prepareReceipt(receipt));
  }

  async recordIntent(intent: Omit<CommandIntent, "createdAt">): Promise<boolean> {
    this.assertOpen();
    return this.intents.record(intent, new Date().toISOString());
  }

  async findIntent(commandId: string): Promise<CommandIntent | null> {
    this.assertOpen();
    return this.intents.find(commandId);
  }

  async listIntents(): Promise<CommandIntent[]> {
    this.assertOpen();
    return this.intents.list();
  }

  async clearIntent(commandId: string): Promise<void> {
    this.assertOpen();
    await this.intents.clear(commandId);
  }

  async readAggregateSnapshot(streamId: string): Promise<AggregateSnapshot | null> {
    this.assertOpen();
    return this.aggregates.read(streamId);
  }

  async saveAggregateSnapshot(snapshot: AggregateSnapshot): Promise<void> {
    this.assertOpen();
    const { version, sequence } = snapshot;
    if (!Number.isSafeInteger(version) || version < 1 || !Number.isSafeInteger(sequence)) {
      throw new InvalidAppendError(`aggregate snapshot of ${snapshot.streamId}: bad position`);
    }
    await this.aggregates.save(snapshot);
  }

  async readFoldCheckpoint(
    streamId: string,
    format: string,
    upToSequence: number,
    aboveVersion = 0,
  ): Promise<FoldCheckpoint | null> {
    this.assertOpen();
    return this.foldCheckpoints.read(streamId, format, upToSequence, aboveVersion);
  }

  async saveFoldCheckpoint(checkpoint: FoldCheckpoint, keep: number): Promise<void> {
    this.assertOpen();
    const { version, sequence } = checkpoint;
    if (!Number.isSafeInteger(version) || version < 1 || !Number.isSafeInteger(sequence)) {
      throw new InvalidAppendError(`fold checkpoint of ${checkpoint.streamId}: bad position`);
    }
    if (!Number.isSafeInteger(keep) || keep < 2) {
      throw new InvalidAppendError(`fold checkpoints: keep must be 2 or more, got ${keep}`);
    }
    await this.foldCheckpoints.save(checkpoint, keep);
  }

  async foldCheckpointPositions(
    streamId: string,
    format: string,
  ): Promise<FoldCheckpointPosition[]> {
    this.assertOpen();
    return this.foldCheckpoints.positions(streamId, format);
  }

  async snapshot<T>(
    read: (query: ProjectionQuery) => Promise<T> | T,
    options: SnapshotOptions = {},
  ): Promise<Snapshot<T>> {
    this.assertOpen();
    if (options.through === "prisma") return this.prismaReads.snapshot(read);
    return this.snapshots.snapshot(read);
  }

  subscribe(options: SubscribeOptions): EventSubscription {
    this.assertOpen();
    return this.bus.subscribe(options);
  }

  protected assertOpen(): void {
    if (this.closed) throw new StoreClosedError();
  }
}
