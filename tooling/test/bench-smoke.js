import { execFile } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";

/**
 * For the packages' bench-smoke tests: runs one bench script (`bench`, relative to `packageDir`)
 * on its small workload (SKEIN_BENCH_SMOKE=1), so a bench that crashes fails CI instead of the
 * next `pnpm bench`. Its rows go to a scratch directory (never bench/.rows), removed after.
 * Returns the names of the rows it wrote to `rowsFile`; rejects when the bench exits non-zero
 * (its output in the error) or a row has no measured (finite) value.
 * @param {string} packageDir
 * @param {string} bench
 * @param {string} rowsFile
 * @returns {Promise<string[]>}
 */
export async function measuredRowNames(packageDir, bench, rowsFile) {
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
    /** @type {{ name: string, value: unknown }[]} */
    const rows = JSON.parse(fs.readFileSync(path.join(rowsDir, rowsFile), "utf8"));
    const unmeasured = rows.filter((row) => !Number.isFinite(row.value)).map((row) => row.name);
    if (unmeasured.length > 0) throw new Error(`rows without a measured value: ${unmeasured}`);
    return rows.map((row) => row.name);
  } finally {
    fs.rmSync(rowsDir, { recursive: true, force: true });
  }
}
