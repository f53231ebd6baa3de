/** What tests reach behind the provider interface for: the live session class (to find its process). */
export { ClaudeProviderSession } from "./claude-provider-session.ts";
export { claudeSessionOutsideSkein } from "./outside-session.ts";
/** The bundled `claude` binary, for tests that point the adapter at a path of their own. */
export { resolveClaudeExecutable } from "./executable.ts";
/** A plain Claude Agent SDK session, no Skein in between (the direct side of the benches). */
export { type DirectClaudeSession, directClaudeSession } from "./direct-sdk-session.ts";
