/** The Codex provider adapter: its factory, its settings and what it can do. */
export {
  CODEX_CAPABILITIES,
  type CodexAdapterOptions,
  createCodexAdapter,
} from "./codex-adapter.ts";
export type { CodexConfig } from "./config/codex-config.ts";
