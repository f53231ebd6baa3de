import { skeinVitestConfig } from "@skein/test-config";
import { mergeConfig } from "vitest/config";

// The browser suite builds the UI once and drives real providers: allow minutes, not seconds.
export default mergeConfig(skeinVitestConfig({ testTimeout: 120_000 }), {
  test: { hookTimeout: 300_000, fileParallelism: false },
});
