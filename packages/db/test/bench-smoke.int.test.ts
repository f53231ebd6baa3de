// `pnpm --filter @skein/db bench` runs to the end on a small workload (SKEIN_BENCH_SMOKE=1), so a
// bench that crashes fails CI instead of the next `pnpm bench`. The smoke's figures mean nothing:
// the test checks that the bench finishes and writes measured rows, into a scratch directory.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const TSX_LOADER = pathToFileURL(path.join(PACKAGE_DIR, "../../node_modules/tsx/dist/loader.mjs"));
const rowsDir = fs.mkdtempSync(path.join(os.tmpdir(), "skein-db-bench-smoke-"));

afterAll(() => fs.rmSync(rowsDir, { recursive: true, force: true }));

it("the db benches run to the end and write measured rows", async () => {
  await promisify(execFile)(
    process.execPath,
    ["--import", TSX_LOADER.href, path.join(PACKAGE_DIR, "bench/run.ts")],
    {
      cwd: PACKAGE_DIR,
      env: { ...process.env, SKEIN_BENCH_SMOKE: "1", SKEIN_BENCH_ROWS_DIR: rowsDir },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const rows = JSON.parse(fs.readFileSync(path.join(rowsDir, "db.json"), "utf8")) as {
    name: string;
    value: unknown;
  }[];
  expect(rows.map((row) => row.name)).toEqual([
    "append_ratio",
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
  for (const row of rows) expect(Number.isFinite(row.value), row.name).toBe(true);
}, 180_000);
