import { skeinVitestConfig } from "@skein/test-config";

// The integration tests drive real agent runtimes (Gemini CLI, claude-agent-acp) over ACP; on a
// loaded two-core machine one such test can take well over the shared 20 s bound.
export default skeinVitestConfig({ testTimeout: 120_000 });
