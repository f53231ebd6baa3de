// `pnpm --filter @skein/db bench` runs to the end on a small workload (SKEIN_BENCH_SMOKE=1), so a
// bench that crashes fails CI instead of the next `pnpm bench`. The smoke's figures mean nothing:
// the test checks that the bench finishes and writes the rows it should, each measured.
import { fileURLToPath } from "node:url";
import { measuredRowNames } from "@skein/test-config/bench-smoke";
import { expect, it } from "vitest";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

it("the db benches run to the end and write measured rows", async () => {
  const names = await measuredRowNames(PACKAGE_DIR, "bench/run.ts", "db.json");
  expect(names).toEqual([
    "append_ratio",
    "turn_append_cpu_ratio",
    "turn_append_wal_pages",
    "pg_append_ratio",
    "detail_snapshot_ms",
    "shells_snapshot_ms",
    "fanout_p99_ms",
    ...["", "pg_"].flatMap((prefix) =>
      ["shells_page", "shells_search", "detail_window", "thread_get", "projects", "receipt"].map(
        (read) => `${prefix}prisma_${read}_ratio`,
      ),
    ),
  ]);
}, 180_000);
