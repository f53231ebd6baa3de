/**
 * SKEIN_BENCH_SMOKE=1: the CI smoke (test/bench-smoke.int.test.ts) runs the benches end to end on
 * a workload small enough for the test budget, so a crashing bench fails CI; its figures mean
 * nothing and go to SKEIN_BENCH_ROWS_DIR, never bench/.rows.
 */
export function benchSize<T>(full: T, smoke: T): T {
  return process.env.SKEIN_BENCH_SMOKE === "1" ? smoke : full;
}
