/**
 * What tests and benches reach behind the provider interface for: the live session class (to find
 * its process) and the raw JSON-RPC client (to measure the adapter's own overhead).
 */
export { resolveCodexConfig } from "./config/codex-config.ts";
export { runtimePolicy } from "./mapping/runtime-policy.ts";
export { CodexAppServerClient } from "./rpc/app-server-client.ts";
export { CodexSession } from "./session/codex-session.ts";
export { codexThreadOutsideSkein } from "./outside-thread.ts";
