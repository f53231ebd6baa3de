import type { ViteUserConfig } from "vitest/config";

export declare function skeinVitestConfig(overrides?: { testTimeout?: number }): ViteUserConfig;
