// `pnpm --filter @skein/web bench` runs to the end on a small thread (SKEIN_BENCH_SMOKE=1), so a
// UI bench that crashes fails CI instead of the next `pnpm bench`. The smoke's figures mean
// nothing: the test checks that the bench finishes and writes measured rows, into a scratch dir.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const TSX_LOADER = pathToFileURL(path.join(PACKAGE_DIR, "node_modules/tsx/dist/loader.mjs"));
const rowsDir = fs.mkdtempSync(path.join(os.tmpdir(), "skein-web-bench-smoke-"));

afterAll(() => fs.rmSync(rowsDir, { recursive: true, force: true }));

it("the UI bench runs to the end and writes measured rows", async () => {
  await promisify(execFile)(
    process.execPath,
    ["--import", TSX_LOADER.href, path.join(PACKAGE_DIR, "bench/ui.bench.ts")],
    {
      cwd: PACKAGE_DIR,
      env: { ...process.env, SKEIN_BENCH_SMOKE: "1", SKEIN_BENCH_ROWS_DIR: rowsDir },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const rows = JSON.parse(fs.readFileSync(path.join(rowsDir, "web-ui.json"), "utf8")) as {
    name: string;
    value: unknown;
  }[];
  expect(rows.map((row) => row.name)).toEqual([
    "ui_first_paint_ms",
    "ui_stream_frame_ms",
    "ui_scroll_frame_ms",
    "ui_sidebar_search_ms",
  ]);
  for (const row of rows) expect(Number.isFinite(row.value), row.name).toBe(true);
}, 300_000);
