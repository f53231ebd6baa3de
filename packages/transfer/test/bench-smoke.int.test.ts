// `pnpm --filter @skein/transfer bench` runs to the end on a small workload (SKEIN_BENCH_SMOKE=1), so a
// bench that crashes fails CI instead of the next `pnpm bench`. The smoke's figures mean nothing:
// the test checks that the bench finishes and writes the rows it should, each measured.
import { fileURLToPath } from "node:url";
import { measuredRowNames } from "@skein/test-config/bench-smoke";
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
  async (bench, file, expected) => {
    const names = await measuredRowNames(PACKAGE_DIR, `bench/${bench}`, file);
    expect(names).toEqual(expect.arrayContaining(expected));
  },
  120_000,
);
