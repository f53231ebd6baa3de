// `pnpm --filter @skein/db bench` runs to the end on a small workload (SKEIN_BENCH_SMOKE=1), so a
// bench that crashes fails CI instead of the next `pnpm bench`. The smoke's figures mean nothing:
// the test checks that the bench finishes and writes measured rows.
import { fileURLToPath } from "node:url";
import { runBenchSmoke } from "@skein/test-config/bench-smoke";
import { expect, it } from "vitest";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

it("the db benches run to the end and write measured rows", async () => {
  const rows = await runBenchSmoke({
    packageDir: PACKAGE_DIR,
    bench: "bench/run.ts",
    rowsFile: "db.json",
  });
  expect(rows.map((row) => row.name)).toEqual([
    "append_ratio",
    "pg_append_ratio",
    "detail_snapshot_ms",
    "shells_snapshot_ms",
    "fanout_p99_ms",
  ]);
  for (const row of rows) expect(Number.isFinite(row.value), row.name).toBe(true);
}, 180_000);
