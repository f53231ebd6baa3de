import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * SKEIN_BENCH_SMOKE=1: the CI smoke (test/bench-smoke.int.test.ts) runs the benches end to end
 * with few samples, so a crashing bench fails CI; its figures mean nothing and go to
 * SKEIN_BENCH_ROWS_DIR, never bench/.rows.
 */
export function benchSize<T>(full: T, smoke: T): T {
  return process.env.SKEIN_BENCH_SMOKE === "1" ? smoke : full;
}

/** Writes rows to <repo>/bench/.rows/<file> (or SKEIN_BENCH_ROWS_DIR) for `pnpm bench`. */
export function writeRows(file: string, rows: readonly unknown[]): void {
  const dir =
    process.env.SKEIN_BENCH_ROWS_DIR ??
    fileURLToPath(new URL("../../../bench/.rows/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, file), `${JSON.stringify(rows, null, 2)}\n`);
  console.log(JSON.stringify(rows));
}
