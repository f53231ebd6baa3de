// `pnpm --filter @skein/transfer bench` runs to the end on a small workload (SKEIN_BENCH_SMOKE=1), so a
// bench that crashes fails CI instead of the next `pnpm bench`. The smoke's figures mean nothing:
// the test checks that the bench finishes and writes measured rows.
import { fileURLToPath } from "node:url";
import { runBenchSmoke } from "@skein/test-config/bench-smoke";
import { expect, it } from "vitest";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

it.each([
  ["handoff.bench.ts", "transfer.json", ["handoff_build_ms"]],
  [
    "fidelity.bench.ts",
    "transfer-fidelity.json",
    ["handoff_build_ms_4000", "handoff_delta_build_ms_4000"],
  ],
])(
  "%s runs to the end and writes measured rows",
  async (bench, file, names) => {
    const rows = await runBenchSmoke({
      packageDir: PACKAGE_DIR,
      bench: `bench/${bench}`,
      rowsFile: file,
    });
    expect(rows.map((row) => row.name)).toEqual(expect.arrayContaining(names));
    for (const row of rows) expect(Number.isFinite(row.value), row.name).toBe(true);
  },
  120_000,
);
