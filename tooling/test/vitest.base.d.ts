import type { ViteUserConfig } from "vitest/config";

export declare function skeinVitestConfig(overrides?: {
  testTimeout?: number;
  /** Also run *.test-d.ts type tests (tsc) in the unit tier. */
  typecheck?: boolean;
}): ViteUserConfig;
