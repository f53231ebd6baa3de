import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type BenchRow = {
  name: string;
  value: number;
  unit: string;
  target: string | number;
  pass: boolean;
};

/**
 * SKEIN_BENCH_SMOKE=1: the CI smoke (bench-smoke-*.int.test.ts) runs every bench end to end on a
 * workload small enough for the test budget, so a bench that crashes fails CI. Its figures mean
 * nothing and never reach bench/results.json (the smoke points SKEIN_BENCH_ROWS_DIR elsewhere).
 */
export const BENCH_SMOKE = process.env.SKEIN_BENCH_SMOKE === "1";

/** The full workload, or the smoke's. */
export function benchSize<T>(full: T, smoke: T): T {
  return BENCH_SMOKE ? smoke : full;
}

/** bench/.rows at the repo root, where `pnpm bench` collects rows (SKEIN_BENCH_ROWS_DIR overrides). */
export function benchRowsDir(): string {
  return (
    process.env.SKEIN_BENCH_ROWS_DIR ??
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../bench/.rows")
  );
}

/** Writes a bench's rows to <rows dir>/<file> (for `pnpm bench`) and prints them. */
export function writeBenchRows(file: string, rows: readonly BenchRow[]): void {
  const rowsDir = benchRowsDir();
  mkdirSync(rowsDir, { recursive: true });
  writeFileSync(path.join(rowsDir, file), `${JSON.stringify(rows, null, 2)}\n`);
  for (const row of rows)
    console.log(`${row.name} ${row.value} ${row.unit} (target ${row.target})`);
}

/** A row for a ratio that must stay at or under `target` (Skein ÷ a baseline in the same run). */
export function ratioRow(name: string, ratio: number, target: number): BenchRow {
  return {
    name,
    value: +ratio.toFixed(3),
    unit: "ratio",
    target: `<= ${target}`,
    pass: ratio <= target,
  };
}
