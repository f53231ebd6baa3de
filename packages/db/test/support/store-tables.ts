import { PROJECTION_TABLES } from "../../src/projection-tables.ts";

/** Every table the migrations create, on either database, sorted: the store's own and the projections. */
export const STORE_TABLES = [
  "aggregate_snapshots",
  "command_intents",
  "command_receipts",
  "events",
  "fold_checkpoints",
  "runtime_leases",
  "streams",
  ...PROJECTION_TABLES,
].sort();
