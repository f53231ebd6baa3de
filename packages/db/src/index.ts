export type { BenchRow } from "./bench/measure.ts";
export { median, percentile } from "./bench/measure.ts";
export type { SnapshotBenchOptions, SnapshotBenchResult } from "./bench/snapshot-bench.ts";
export { measureSnapshotMedian } from "./bench/snapshot-bench.ts";
export { type SqliteStorage, sqliteStorage } from "./bench/sqlite-storage.ts";
export type { EventBusOptions } from "./bus/event-bus.ts";
export { EventBus } from "./bus/event-bus.ts";
export {
  ConcurrencyError,
  InvalidAppendError,
  LeaseFenceError,
  ReceiptConflictError,
  StoreClosedError,
  StoreUnavailableError,
  SubscriberOverflow,
} from "./errors.ts";
export type {
  AggregateSnapshot,
  AppendFence,
  AppendOptions,
  AppendResult,
  CommandIntent,
  EventStore,
  EventSubscription,
  BusStats,
  ExpectedVersion,
  FoldCheckpoint,
  FoldCheckpointPosition,
  NewEvent,
  ProjectionFilter,
  ProjectionQuery,
  ProjectionRow,
  ReceiptBinding,
  Snapshot,
  RawSequence,
  StoredEvent,
  StoredReceipt,
  SubscribeOptions,
  SubscriptionFilter,
  ThreadPageFilter,
} from "./event-store.ts";
export type { OpenEventStoreOptions } from "./open-event-store.ts";
export { openEventStore } from "./open-event-store.ts";
export { checkpointsToThin } from "./fold-checkpoint-thinning.ts";
export { isPostgresUrl } from "./postgres/connection.ts";
export { isStoreFault } from "./postgres/connection-faults.ts";
export {
  applyPostgresMigrations,
  loadPostgresMigrations,
  POSTGRES_MIGRATIONS_DIR,
} from "./postgres/migrator.ts";
export type {
  PostgresEventStore,
  PostgresEventStoreOptions,
} from "./postgres/postgres-event-store.ts";
export { openPostgresEventStore } from "./postgres/postgres-event-store.ts";
export { isProjectionTable, PROJECTION_TABLES } from "./projection-tables.ts";
export {
  type MemoryRows,
  memoryProjectionQuery,
  memoryRowKey,
} from "./memory-projection-query.ts";
export type { ProjectionTable, ProjectionWrite } from "./projection-types.ts";
export type { LeaseKeeperOptions } from "./lease-keeper.ts";
export { LeaseKeeper, PRESENCE_PREFIX } from "./lease-keeper.ts";
export type { AcquireResult, RuntimeLease, RuntimeLeases } from "./runtime-leases.ts";
export { MemoryRuntimeLeases } from "./runtime-leases.ts";
export type {
  RawEventSink,
  RawLogReader,
  RawLogRecord,
  RotatingLog,
  RotatingLogOptions,
} from "./raw-log/rotating-log.ts";
export { compareRawEventIds, createRotatingLog } from "./raw-log/rotating-log.ts";
export {
  DEFAULT_FILENAME as DEFAULT_SQLITE_FILENAME,
  defaultDataDir,
} from "./sqlite/connection.ts";
export type { Migration } from "./sqlite/migrator.ts";
export { applyMigrations, loadMigrations, SQLITE_MIGRATIONS_DIR } from "./sqlite/migrator.ts";
export type { SqliteEventStore, SqliteEventStoreOptions } from "./sqlite/sqlite-event-store.ts";
export { openSqliteEventStore } from "./sqlite/sqlite-event-store.ts";
