import type { EventBus } from "./bus/event-bus.ts";
import { StoreClosedError } from "./errors.ts";
import type {
  AppendOptions,
  AppendResult,
  EventSubscription,
  ExpectedVersion,
  NewEvent,
  ProjectionQuery,
  Snapshot,
  StoredEvent,
  StoredReceipt,
  SubscribeOptions,
} from "./event-store.ts";
import { type PreparedAppend, prepareAppend } from "./prepare-append.ts";

type MaybePromise<T> = T | Promise<T>;

/** The log reads each database answers its own way (SQLite synchronously, PostgreSQL pooled). */
export interface LogReads {
  readAll(afterSequence: number, limit?: number): MaybePromise<StoredEvent[]>;
  readStream(streamId: string, afterSequence?: number): MaybePromise<StoredEvent[]>;
  streamVersion(streamId: string): MaybePromise<number>;
  headSequence(): MaybePromise<number>;
  findReceipt(commandId: string): MaybePromise<StoredReceipt | null>;
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

  get subscriberCount(): number {
    return this.bus.subscriberCount;
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

  async readStream(streamId: string, afterSequence?: number): Promise<StoredEvent[]> {
    this.assertOpen();
    return this.events.readStream(streamId, afterSequence);
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

  async snapshot<T>(read: (query: ProjectionQuery) => Promise<T> | T): Promise<Snapshot<T>> {
    this.assertOpen();
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
