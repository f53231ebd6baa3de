import { skeinVitestConfig } from "@skein/test-config";
import { mergeConfig } from "vitest/config";

// The integration tests drive real provider processes (codex, the Claude CLI) several turns deep;
// on a loaded two-core machine one such test can take well over the shared 20 s bound. Most of
// their time is spent waiting on those processes and the fake models' pacing (two files at once
// kept the two cores less than half busy), so three files run at once (vitest's default on two
// cores is one).
export default mergeConfig(skeinVitestConfig({ testTimeout: 60_000 }), {
  test: { maxWorkers: 3 },
});
