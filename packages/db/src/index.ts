export {
  ConcurrencyError,
  LeaseFenceError,
  ReceiptConflictError,
  StoreClosedError,
  SubscriberOverflow,
} from "./errors.ts";
export type {
  AppendFence,
  CommandReceipt,
  EventStore,
  EventSubscription,
  FoldCheckpoint,
  NewEvent,
  ProjectionFilter,
  ProjectionQuery,
  ProjectionRow,
  ReceiptBinding,
  SnapshotOptions,
  StoredEvent,
  StoredReceipt,
  SubscriptionFilter,
} from "./event-store.ts";
export { receiptConflict } from "./append-outcome.ts";
export { searchableInMessages } from "./message-search.ts";
export { openEventStore } from "./open-event-store.ts";
export { isStoreFault } from "./postgres/connection-faults.ts";
export { type MemoryRows, memoryProjectionQuery } from "./memory-projection-query.ts";
export type { ProjectionWrite } from "./projection-types.ts";
export { LeaseKeeper, PRESENCE_PREFIX } from "./lease-keeper.ts";
export type { RuntimeLease, RuntimeLeases } from "./runtime-leases.ts";
export { MemoryRuntimeLeases } from "./runtime-leases.ts";
export type { RawLogReader, RotatingLog } from "./raw-log/rotating-log.ts";
export { compareRawEventIds, createRotatingLog } from "./raw-log/rotating-log.ts";
export { DEFAULT_FILENAME as DEFAULT_SQLITE_FILENAME } from "./sqlite/connection.ts";
export type { SqliteEventStore } from "./sqlite/sqlite-event-store.ts";
export { openSqliteEventStore } from "./sqlite/sqlite-event-store.ts";
