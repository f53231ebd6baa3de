import pg from "pg";
import { EventBus } from "../bus/event-bus.ts";
import { StoreBase } from "../store-base.ts";
import type { EventStore } from "../event-store.ts";
import type { RuntimeLeases } from "../runtime-leases.ts";
import {
  channelName,
  clientConfig,
  createPool,
  type PgPool,
  type PgTarget,
  resolveTarget,
} from "./connection.ts";
import { LogFeed } from "./log-feed.ts";
import { LogListener } from "./log-listener.ts";
import { applyPostgresMigrations, loadPostgresMigrations } from "./migrator.ts";
import { asStoreFault } from "./connection-faults.ts";
import { PgEventReader } from "./pg-event-reader.ts";
import { GroupCommit } from "../group-commit.ts";
import { PgAggregateSnapshots } from "./pg-aggregate-snapshots.ts";
import { PgFoldCheckpoints } from "./pg-fold-checkpoints.ts";
import { PgIntentTable } from "./pg-intent-table.ts";
import { PgReceiptTable } from "./pg-receipt-table.ts";
import { PgSnapshots } from "./pg-snapshots.ts";
import { PgRuntimeLeases } from "./pg-runtime-leases.ts";
import { PgWriter } from "./pg-writer.ts";
import { connectPgPrisma, type PrismaQueryLog } from "../prisma/clients.ts";
import { PrismaSnapshots } from "../prisma/prisma-snapshots.ts";

export type PostgresEventStoreOptions = {
  /** `postgres://` or `postgresql://` URL; a `?schema=` parameter names the schema. */
  url: string;
  /** Schema holding the store's tables (created and migrated on open); default `public`. */
  schema?: string;
  /** Most appends written by one group-commit transaction; default 1000. */
  maxBatchSize?: number;
  /**
   * Most serialized bytes one group-commit transaction is given (its single statement carries
   * them all as parameters); default 16 MiB. One larger append still goes alone.
   */
  maxBatchBytes?: number;
  /** Pooled connections for log reads (readAll, readStream, backfills…); default 4. */
  readConnections?: number;
  /** Concurrent snapshot transactions, each on its own connection; default 4. */
  snapshotConnections?: number;
  /** Default per-subscriber bound on undelivered events; default 10,000. */
  subscriberBufferSize?: number;
  /** Fallback poll of the log for other instances' events, should a NOTIFY be missed; 1000 ms. */
  pollIntervalMs?: number;
  /** Store clock for `recordedAt`. */
  now?: () => Date;
  /** Tests: the SQL of every query sent through the Prisma client. */
  prismaQueryLog?: PrismaQueryLog;
};

export type PostgresEventStore = EventStore & {
  readonly schema: string;
  /** Live subscribers attached right now (diagnostics, tests). */
  readonly subscriberCount: number;
};

/**
 * Opens the PostgreSQL event store: creates and migrates the schema (under an advisory lock, so
 * instances starting together do not race), then starts listening for other instances' commits.
 * Several instances may share one schema: appends serialize on the log lock, and every
 * instance's subscribers see every instance's events.
 */
export async function openPostgresEventStore(
  options: PostgresEventStoreOptions,
): Promise<PostgresEventStore> {
  const target = resolveTarget(options.url, options.schema);
  const migrator = new pg.Client(clientConfig(target, "migrate"));
  await migrator.connect();
  let lockKey: number;
  try {
    await applyPostgresMigrations(migrator, target.schema, loadPostgresMigrations());
    // The events table's oid names this log's lock: unique per database, so stores in different
    // schemas never contend. Folded into int4, the type of the advisory lock's second key.
    const { rows } = await migrator.query<{ oid: number }>(
      "SELECT 'events'::regclass::oid::bigint AS oid",
    );
    lockKey = (rows[0]?.oid ?? 0) | 0;
  } finally {
    await migrator.end();
  }
  const store = new PostgresStore(target, lockKey, options);
  try {
    await store.start();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

class PostgresStore extends StoreBase implements PostgresEventStore {
  readonly schema: string;
  readonly runtimeLeases: RuntimeLeases;
  private readonly readPool: PgPool;
  private readonly snapshotPool: PgPool;
  private readonly writerPool: PgPool;
  protected readonly events: PgEventReader;
  protected readonly snapshots: PgSnapshots;
  protected readonly commits: GroupCommit;
  protected readonly bus: EventBus;
  protected readonly intents: PgIntentTable;
  protected readonly receipts: PgReceiptTable;
  protected readonly aggregates: PgAggregateSnapshots;
  protected readonly foldCheckpoints: PgFoldCheckpoints;
  protected readonly prismaReads: PrismaSnapshots;
  private readonly listener: LogListener;
  private feed: LogFeed | null = null;
  private poll: NodeJS.Timeout | null = null;

  constructor(
    target: PgTarget,
    lockKey: number,
    private readonly options: PostgresEventStoreOptions,
  ) {
    super();
    this.schema = target.schema;
    const channel = channelName(target.schema);
    this.readPool = createPool(target, "read", options.readConnections ?? 4);
    this.snapshotPool = createPool(target, "snapshot", options.snapshotConnections ?? 4);
    // One batch transaction at a time per instance, as with SQLite's single writer. A writer that
    // hangs mid-transaction (its statements never idle for more than a few ms) must not hold the
    // log lock, which every instance needs, for longer than this.
    this.writerPool = createPool(target, "write", 1, {
      idle_in_transaction_session_timeout: 10_000,
    });
    this.events = new PgEventReader(this.readPool);
    // Prisma's reads share the snapshot pool: the same connections, so the same schema and
    // session settings, and no more connections than before.
    this.prismaReads = new PrismaSnapshots({
      connect: () => connectPgPrisma(this.snapshotPool, target.schema, options.prismaQueryLog),
      provider: "postgres",
      isolationLevel: "RepeatableRead",
    });
    this.runtimeLeases = new PgRuntimeLeases(this.readPool, () => this.prismaReads.prisma());
    this.intents = new PgIntentTable(this.readPool);
    this.receipts = new PgReceiptTable(this.readPool, lockKey);
    this.aggregates = new PgAggregateSnapshots(this.readPool);
    this.foldCheckpoints = new PgFoldCheckpoints(this.readPool);
    this.snapshots = new PgSnapshots(this.snapshotPool);
    this.bus = new EventBus({
      // Not through readAll(): backfills may still run while close() flushes the last appends.
      readAfter: (after, limit) => this.events.readAll(after, limit),
      bufferSize: options.subscriberBufferSize,
    });
    const writer = new PgWriter(this.writerPool, channel, lockKey);
    this.commits = new GroupCommit({
      // A lost connection fails the batch's appends with a typed cause (issue 35).
      commit: (batch, at) =>
        writer.commit(batch, at).catch((error: unknown) => {
          throw asStoreFault(error);
        }),
      onCommitted: async (events) => this.feed?.committed(events),
      maxBatchSize: options.maxBatchSize ?? 1_000,
      maxBatchBytes: options.maxBatchBytes ?? 16 * 1024 * 1024,
      now: options.now ?? (() => new Date()),
    });
    this.listener = new LogListener({
      config: clientConfig(target, "listen"),
      channel,
      onSignal: (sequence) => this.feed?.signal(sequence),
    });
  }

  /** LISTEN first, then read the head: a commit after the head read is either notified or polled. */
  async start(): Promise<void> {
    await this.listener.start();
    this.feed = new LogFeed({
      cursor: await this.events.headSequence(),
      readAfter: (after, limit) => this.events.readAll(after, limit),
      publish: (events) => this.bus.publish(events),
      onError: (error) => process.emitWarning(`event store: reading new events failed: ${error}`),
    });
    this.poll = setInterval(() => this.feed?.signal(null), this.options.pollIntervalMs ?? 1_000);
    this.poll.unref();
  }

  /** A lost connection is met (and reported) by the operation that needs it; pools reconnect. */
  fault(): string | null {
    return null;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.commits.drain();
    if (this.poll !== null) clearInterval(this.poll);
    await this.listener.stop();
    await this.feed?.stop();
    this.bus.closeAll();
    await this.prismaReads.close();
    await Promise.all([this.readPool.end(), this.snapshotPool.end(), this.writerPool.end()]);
  }
}
