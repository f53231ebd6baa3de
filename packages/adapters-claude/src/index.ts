/** The Claude provider adapter: its factory, its settings and what it can do. */
export { CLAUDE_CAPABILITIES } from "./capabilities.ts";
export { createClaudeAdapter } from "./claude-adapter.ts";
export type { ClaudeConfig } from "./config.ts";
