import { execFile } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";

/**
 * For the packages' bench-smoke tests: runs one bench script on its small workload
 * (SKEIN_BENCH_SMOKE=1), so a bench that crashes fails CI instead of the next `pnpm bench`. Its
 * rows go to a scratch directory (never bench/.rows), removed after; returns those in `rowsFile`.
 * A bench that exits non-zero rejects, with its output in the error.
 * @param {{ packageDir: string, bench: string, rowsFile: string }} run
 * @returns {Promise<{ name: string, value: unknown }[]>}
 */
export async function runBenchSmoke({ packageDir, bench, rowsFile }) {
  // tsx as the package itself resolves it, so the bench runs as `pnpm bench` runs it.
  const tsx = pathToFileURL(createRequire(path.join(packageDir, "package.json")).resolve("tsx"));
  const rowsDir = fs.mkdtempSync(path.join(os.tmpdir(), "skein-bench-smoke-"));
  try {
    await promisify(execFile)(
      process.execPath,
      ["--import", tsx.href, path.join(packageDir, bench)],
      {
        cwd: packageDir,
        env: { ...process.env, SKEIN_BENCH_SMOKE: "1", SKEIN_BENCH_ROWS_DIR: rowsDir },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    return JSON.parse(fs.readFileSync(path.join(rowsDir, rowsFile), "utf8"));
  } finally {
    fs.rmSync(rowsDir, { recursive: true, force: true });
  }
}
