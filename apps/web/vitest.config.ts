import { skeinVitestConfig } from "@skein/test-config";
import { mergeConfig } from "vitest/config";

// The browser suite builds the UI once and drives real providers: allow minutes, not seconds.
// Each browser file starts its own stack on free ports; most of a file's time is spent waiting
// on the page, the API and the runtimes, so two files run at once (the build is shared behind a
// lock, test/support/build.ts). A page showing what the API just did can take seconds on a
// loaded machine, so `expect.poll` waits up to 15 s (it ends as soon as the page shows it).
export default mergeConfig(skeinVitestConfig({ testTimeout: 120_000 }), {
  test: { hookTimeout: 300_000, maxWorkers: 2, expect: { poll: { timeout: 15_000 } } },
});
