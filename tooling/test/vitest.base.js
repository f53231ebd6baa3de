import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/** The tiers, by file suffix: what each project includes. */
const roots = ["src/**/", "test/**/"];
const INT = roots.map((r) => `${r}*.int.test.ts`);
const E2E = roots.map((r) => `${r}*.e2e.test.ts`);
const UNIT = roots.map((r) => `${r}*.test.ts`);
const TYPE_TESTS = roots.map((r) => `${r}*.test-d.ts`);

/**
 * Shared vitest settings. Tests are tiered by suffix into three projects: `unit` (*.test.ts: no
 * processes, no database, the fast loop), `int` (*.int.test.ts: databases, processes, real
 * binaries) and `e2e` (*.e2e.test.ts: the browser). `vitest run` runs them all;
 * `vitest run --project unit` runs one tier. With `typecheck`, the unit tier also checks
 * *.test-d.ts type tests with tsc.
 * Plain JS because vitest loads config dependencies from node_modules without transpiling.
 * @param {{ testTimeout?: number, typecheck?: boolean }} [overrides]
 */
export function skeinVitestConfig(overrides = {}) {
  return defineConfig({
    test: {
      testTimeout: overrides.testTimeout ?? 20_000,
      hookTimeout: 30_000,
      pool: "forks",
      // Clears a stale pyenv lock that would stall Codex's login shells (see the file).
      globalSetup: [fileURLToPath(new URL("./login-shell-guard.js", import.meta.url))],
      projects: [
        {
          extends: true,
          test: {
            name: "unit",
            include: UNIT,
            exclude: [...configDefaults.exclude, ...INT, ...E2E],
            ...(overrides.typecheck
              ? { typecheck: { enabled: true, include: TYPE_TESTS, tsconfig: "./tsconfig.json" } }
              : {}),
          },
        },
        { extends: true, test: { name: "int", include: INT } },
        { extends: true, test: { name: "e2e", include: E2E } },
      ],
    },
  });
}
