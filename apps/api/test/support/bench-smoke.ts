// The CI smoke of the API benches (see bench-smoke-*.int.test.ts): each bench runs to the end on
// a small workload (SKEIN_BENCH_SMOKE=1), so a bench that crashes fails CI instead of the next
// `pnpm bench`. Its figures mean nothing: the test checks that each bench finishes and writes rows
// with measured values, into a scratch directory (never bench/.rows).
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { BENCHES, runBench } from "../../bench/benches.ts";
import { connectAdmin, scratchSchema } from "./postgres.ts";
import { tempDir } from "./test-server.ts";

const schemas: string[] = [];
const dirs: string[] = [];
const scratchDir = (prefix: string) => {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
};

afterAll(async () => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  const admin = await connectAdmin();
  try {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.end();
  }
});

function readRows(dir: string): unknown[] {
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .flatMap((file) => JSON.parse(fs.readFileSync(`${dir}/${file}`, "utf8")) as unknown[]);
}

/**
 * Registers the smoke of every `parts`-th bench from `part` (0-based). The benches are split over
 * several test files so vitest's workers share them: in one file they took ~160 s, the longest
 * file of the API suite, and often its last.
 */
export function describeBenchSmoke(part: number, parts: number): void {
  const mine = BENCHES.filter((_, index) => index % parts === part);
  describe(`bench smoke, part ${part + 1} of ${parts}`, () => {
    it.each(mine.map((bench) => [bench.name, bench] as const))(
      "%s runs to the end and writes measured rows",
      async (_name, bench) => {
        const rowsDir = scratchDir("skein-bench-smoke-rows-");
        // The large-history bench keeps its generated data for reuse: here it gets its own.
        const { schema } = await scratchSchema();
        schemas.push(schema);
        const outcome = await runBench(bench, {
          echo: false,
          env: {
            SKEIN_BENCH_SMOKE: "1",
            SKEIN_BENCH_ROWS_DIR: rowsDir,
            SKEIN_BENCH_LARGE_DIR: scratchDir("skein-bench-smoke-large-"),
            SKEIN_BENCH_LARGE_SCHEMA: schema,
          },
        });
        expect(outcome.code, outcome.output.slice(-4_000)).toBe(0);
        const rows = readRows(rowsDir);
        expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) {
          expect(row).toMatchObject({
            name: expect.any(String),
            unit: expect.any(String),
            pass: expect.any(Boolean),
          });
          expect(Number.isFinite((row as { value: unknown }).value), JSON.stringify(row)).toBe(
            true,
          );
        }
      },
      300_000,
    );
  });
}
