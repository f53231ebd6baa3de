import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { EventBus } from "../bus/event-bus.ts";
import { StoreBase } from "../store-base.ts";
import type { EventStore } from "../event-store.ts";
import {
  DEFAULT_BUSY_TIMEOUT_MS,
  DEFAULT_FILENAME,
  defaultDataDir,
  openReader,
  openWriter,
  type SqliteDatabase,
} from "./connection.ts";
import { EventReader } from "./event-reader.ts";
import { GroupCommit } from "../group-commit.ts";
import { SqliteIntentTable } from "./intent-table.ts";
import { SqliteReceiptTable } from "./receipt-table.ts";
import { applyMigrations, loadMigrations } from "./migrator.ts";
import { SqliteAggregateSnapshots } from "./aggregate-snapshots.ts";
import { SqliteFoldCheckpoints } from "./fold-checkpoints.ts";
import { SnapshotPool } from "./snapshot-pool.ts";
import { MemoryRuntimeLeases, type RuntimeLeases } from "../runtime-leases.ts";
import { SqliteWriter } from "./sqlite-writer.ts";
import { DataFileGuard } from "./data-file-guard.ts";
import { type CheckpointReport, WalCheckpointer } from "./wal-checkpointer.ts";
import { connectSqlitePrisma, type PrismaQueryLog } from "../prisma/clients.ts";
import { PrismaSnapshots } from "../prisma/prisma-snapshots.ts";

export type SqliteEventStoreOptions = {
  /** Directory holding the database; default `$SKEIN_DATA_DIR`, else `~/.skein`. */
  dataDir?: string;
  /** File name inside `dataDir` (or an absolute path); default `skein.db`. */
  filename?: string;
  /** Use a fresh directory under the OS temp dir, deleted by `close()` (tests, benches). */
  temporary?: boolean;
  busyTimeoutMs?: number;
  /** Most appends written by one group-commit transaction; default 1000. */
  maxBatchSize?: number;
  /** Read connections for concurrent snapshots; default 4. */
  snapshotConnections?: number;
  /** Default per-subscriber bound on undelivered events; default 10,000. */
  subscriberBufferSize?: number;
  /** Store clock for `recordedAt`. */
  now?: () => Date;
  /** Tests: the SQL of every query sent through the Prisma client. */
  prismaQueryLog?: PrismaQueryLog;
  /** Diagnostics, tests: each WAL checkpoint the background connection made. */
  onWalCheckpoint?: (report: CheckpointReport) => void;
};

export type SqliteEventStore = EventStore & {
  /** Absolute path of the database file. */
  readonly file: string;
  /** Live subscribers attached right now (diagnostics, tests). */
  readonly subscriberCount: number;
};

/**
 * Opens (creating if needed) the SQLite event store and applies pending migrations. The single
 * writer connection serves appends and log reads; snapshots use their own read connections.
 */
export function openSqliteEventStore(options: SqliteEventStoreOptions = {}): SqliteEventStore {
  const dataDir = options.temporary
    ? fs.mkdtempSync(path.join(os.tmpdir(), "skein-db-"))
    : (options.dataDir ?? defaultDataDir());
  const file = path.resolve(dataDir, options.filename ?? DEFAULT_FILENAME);
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  const db = openWriter(file, busyTimeoutMs);
  try {
    applyMigrations(db, loadMigrations());
  } catch (error) {
    db.close();
    throw error;
  }
  return new SqliteStore(db, file, options.temporary ? dataDir : null, options, busyTimeoutMs);
}

/** SQLite's default `wal_autocheckpoint`, in WAL pages. */
const DEFAULT_WAL_AUTOCHECKPOINT = 1_000;

class SqliteStore extends StoreBase implements SqliteEventStore {
  private readonly leases = new MemoryRuntimeLeases();
  readonly runtimeLeases: RuntimeLeases = this.leases;
  protected readonly events: EventReader;
  protected readonly commits: GroupCommit;
  protected readonly bus: EventBus;
  protected readonly snapshots: SnapshotPool;
  protected readonly intents: SqliteIntentTable;
  protected readonly receipts: SqliteReceiptTable;
  private readonly guard: DataFileGuard;
  private readonly checkpointer: WalCheckpointer;
  protected readonly aggregates: SqliteAggregateSnapshots;
  protected readonly foldCheckpoints: SqliteFoldCheckpoints;
  protected readonly prismaReads: PrismaSnapshots;

  constructor(
    private readonly db: SqliteDatabase,
    readonly file: string,
    private readonly temporaryDir: string | null,
    options: SqliteEventStoreOptions,
    busyTimeoutMs: number,
  ) {
    super();
    this.events = new EventReader(db);
    this.intents = new SqliteIntentTable(db);
    this.receipts = new SqliteReceiptTable(db);
    this.aggregates = new SqliteAggregateSnapshots(db);
    this.foldCheckpoints = new SqliteFoldCheckpoints(db);
    this.bus = new EventBus({
      readAfter: async (after, limit) => this.readAll(after, limit),
      bufferSize: options.subscriberBufferSize,
    });
    // This store's leases live in this process, so a fenced append reads them directly.
    const writer = new SqliteWriter(db, (lease) => this.leases.ownerOf(lease));
    const guard = new DataFileGuard(file);
    this.guard = guard;
    // The WAL is checkpointed on a worker thread (wal-checkpointer.ts), not inside an append;
    // should the worker fail, the writer goes back to SQLite's own threshold.
    db.pragma("wal_autocheckpoint = 0");
    const checkpointer = new WalCheckpointer({
      file,
      busyTimeoutMs,
      onReport: options.onWalCheckpoint,
      onFailure: (error) => {
        db.pragma(`wal_autocheckpoint = ${DEFAULT_WAL_AUTOCHECKPOINT}`);
        process.emitWarning(`WAL checkpoints are back on the writer: ${error}`);
      },
    });
    this.checkpointer = checkpointer;
    this.commits = new GroupCommit({
      // Issue 35: nothing is written (or acknowledged) into a file that is gone or damaged.
      commit: (batch, at) => {
        guard.check();
        try {
          return writer.commit(batch, at);
        } catch (error) {
          throw guard.translate(error);
        }
      },
      onCommitted: (events) => {
        checkpointer.committed();
        return this.bus.publish(events);
      },
      maxBatchSize: options.maxBatchSize ?? 1_000,
      now: options.now ?? (() => new Date()),
    });
    this.snapshots = new SnapshotPool(
      () => openReader(file, busyTimeoutMs),
      options.snapshotConnections ?? 4,
    );
    // A read-only connection of Prisma's own (its adapter opens the file itself), in WAL like
    // the snapshot pool's, so its transactions never wait for the writer.
    this.prismaReads = new PrismaSnapshots({
      connect: () => connectSqlitePrisma(file, busyTimeoutMs, options.prismaQueryLog),
      provider: "sqlite",
    });
  }

  fault(): string | null {
    return this.guard.fault();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.commits.drain();
    await this.checkpointer.close();
    this.bus.closeAll();
    this.snapshots.close();
    await this.prismaReads.close();
    this.db.close();
    this.guard.close();
    if (this.temporaryDir !== null) {
      fs.rmSync(this.temporaryDir, { recursive: true, force: true });
    }
  }
}
