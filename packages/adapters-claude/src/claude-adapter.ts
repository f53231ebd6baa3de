import { PROVIDER_ADAPTER_VERSION, type ProviderAdapter } from "@skein/domain/provider";
import { CLAUDE_CAPABILITIES } from "./capabilities.ts";
import { CLAUDE_ATTACHMENT_TYPES } from "./user-content.ts";
import { ClaudeProviderSession } from "./claude-provider-session.ts";
import type { ClaudeConfig } from "./config.ts";
import { listClaudeModels } from "./list-models.ts";
import { listClaudeSessions, readClaudeSession } from "./native-sessions.ts";
import { claudeReadiness } from "./readiness.ts";

/** The Skein provider adapter for Claude Code, driven through the Claude Agent SDK. */
export function createClaudeAdapter(config: ClaudeConfig = {}): ProviderAdapter {
  return {
    version: PROVIDER_ADAPTER_VERSION,
    provider: "claude",
    capabilities: CLAUDE_CAPABILITIES,
    attachmentTypes: CLAUDE_ATTACHMENT_TYPES,
    async openSession({ providerSessionId, model, rawLog, env }) {
      const withModel = model ? { ...config, model } : config;
      const sessionConfig = env ? { ...withModel, env: { ...withModel.env, ...env } } : withModel;
      return new ClaudeProviderSession(providerSessionId, sessionConfig, rawLog);
    },
    listModels: () => listClaudeModels(config),
    listSessions: (input) => listClaudeSessions(config, input),
    readSession: (sessionId) => readClaudeSession(config, sessionId),
    status: () => claudeReadiness(config),
  };
}
