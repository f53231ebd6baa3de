import {
  PROVIDER_ADAPTER_VERSION,
  type ProviderAdapter,
  type RawEventSink,
} from "@skein/domain/provider";
import { CLAUDE_CAPABILITIES } from "./capabilities.ts";
import { ClaudeProviderSession } from "./claude-provider-session.ts";
import type { ClaudeConfig } from "./config.ts";
import { claudeVersion, resolveClaudeExecutable } from "./executable.ts";

/** Drops frames when the caller has no raw log (E18 logging is then off). */
const discardRawLog: RawEventSink = { record: () => "" };

/** The Skein provider adapter for Claude Code, driven through the Claude Agent SDK. */
export function createClaudeAdapter(config: ClaudeConfig = {}): ProviderAdapter {
  return {
    version: PROVIDER_ADAPTER_VERSION,
    provider: "claude",
    capabilities: CLAUDE_CAPABILITIES,
    async openSession({ providerSessionId, model, rawLog }) {
      const sessionConfig = model ? { ...config, model } : config;
      return new ClaudeProviderSession(providerSessionId, sessionConfig, rawLog ?? discardRawLog);
    },
    async status() {
      const executable = resolveClaudeExecutable(config);
      if (!executable) {
        return {
          found: false,
          version: null,
          ready: false,
          lastError: "claude executable not found",
        };
      }
      const version = await claudeVersion(executable);
      return {
        found: true,
        version,
        ready: version !== null,
        lastError: version === null ? `${executable} --version failed` : null,
      };
    },
  };
}
