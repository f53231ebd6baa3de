import { skeinVitestConfig } from "@skein/test-config";
import { mergeConfig } from "vitest/config";

// The browser suite builds the UI once and drives real providers: allow minutes, not seconds.
// Each browser file starts its own stack on free ports; most of a file's time is spent waiting
// on the page, the API and the runtimes, so two files run at once (the build is shared behind a
// lock, test/support/build.ts).
export default mergeConfig(skeinVitestConfig({ testTimeout: 120_000 }), {
  test: { hookTimeout: 300_000, maxWorkers: 2 },
});
