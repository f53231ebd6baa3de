// Bench helpers of @skein/db, for benches in other packages ("@skein/db/bench"); not the store's surface.
export { percentile } from "./measure.ts";
export { sqliteStorage } from "./sqlite-storage.ts";
