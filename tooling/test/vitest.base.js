import { defineConfig } from "vitest/config";

/**
 * Shared vitest settings: unit (*.test.ts), integration (*.int.test.ts) and e2e tiers run in one
 * pass. Plain JS because vitest loads config dependencies from node_modules without transpiling.
 * @param {{ testTimeout?: number }} [overrides]
 */
export function skeinVitestConfig(overrides = {}) {
  return defineConfig({
    test: {
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      testTimeout: overrides.testTimeout ?? 20_000,
      hookTimeout: 30_000,
      pool: "forks",
    },
  });
}
