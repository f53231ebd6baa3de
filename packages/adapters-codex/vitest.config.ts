import { skeinVitestConfig } from "@skein/test-config";

// The integration tests drive the real runtime several turns deep, with restarts; on a loaded
// two-core machine one such test can take well over the shared 20 s bound.
export default skeinVitestConfig({ testTimeout: 60_000 });
