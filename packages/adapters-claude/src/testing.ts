/** What tests reach behind the provider interface for: the live session class (to find its process). */
export { ClaudeProviderSession } from "./claude-provider-session.ts";
export { claudeSessionOutsideSkein } from "./outside-session.ts";
/** The bundled `claude` binary, for tests that point the adapter at a path of their own. */
export { resolveClaudeExecutable } from "./executable.ts";
