import type { EventStore, ProjectionQuery } from "../event-store.ts";
import { median } from "./measure.ts";

export type SnapshotBenchOptions<T> = {
  store: EventStore;
  read: (query: ProjectionQuery) => Promise<T> | T;
  /** Measured runs; default 20. */
  iterations?: number;
  /** Unmeasured runs first (statement cache, page cache); default 2. */
  warmup?: number;
};

export type SnapshotBenchResult = { medianMs: number; samplesMs: number[] };

/**
 * Median wall time of `store.snapshot(read)`, run back to back. Shared by the snapshot benches
 * (`detail_snapshot_ms`, `shells_snapshot_ms`) that build their data from domain events.
 */
export async function measureSnapshotMedian<T>(
  options: SnapshotBenchOptions<T>,
): Promise<SnapshotBenchResult> {
  const iterations = options.iterations ?? 20;
  for (let i = 0; i < (options.warmup ?? 2); i += 1) await options.store.snapshot(options.read);
  const samplesMs: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const started = performance.now();
    await options.store.snapshot(options.read);
    samplesMs.push(performance.now() - started);
  }
  return { medianMs: median(samplesMs), samplesMs };
}
