import {
  PROVIDER_ADAPTER_VERSION,
  type ProviderAdapter,
  type ProviderCapabilityFlags,
} from "@skein/domain/provider";
import { type CodexConfig, resolveCodexConfig } from "./config/codex-config.ts";
import { listCodexModels } from "./list-models.ts";
import { listCodexSessions, readCodexSession } from "./native-sessions.ts";
import { codexReadiness } from "./readiness.ts";
import { CodexAppServerClient } from "./rpc/app-server-client.ts";
import { CodexSession } from "./session/codex-session.ts";

/**
 * What Codex 0.171 does natively (see PROTOCOL-NOTES.md). Rollback is native for paginated
 * threads only; legacy threads fail it explicitly per call. Codex's own sub-agents (multi-agent
 * collaboration) are followed as child turns of the turn that spawned them (T9).
 */
export const CODEX_CAPABILITIES: ProviderCapabilityFlags = {
  nativeFork: true,
  forkAtTurn: true,
  rollback: true,
  steer: true,
  interrupt: true,
  resume: true,
  strongTurnIds: true,
  nativeSubagents: true,
  appOwnedTools: true,
  historyInjection: true,
  approvals: true,
  readHistory: true,
  planMode: true,
  effort: true,
  adoptSessions: true,
};

export type CodexAdapterOptions = CodexConfig & {
  /** Window for merging streamed deltas into one event; the design allows ≤ 50 ms. */
  coalesceMs?: number;
};

/** Skein's provider adapter over the real `codex app-server`, one process per session. */
export function createCodexAdapter(options: CodexAdapterOptions = {}): ProviderAdapter {
  const { coalesceMs = 50, ...config } = options;
  return {
    version: PROVIDER_ADAPTER_VERSION,
    provider: "codex",
    capabilities: CODEX_CAPABILITIES,
    // Codex reads images from local paths (`localImage`); it takes no documents.
    attachmentTypes: ["image/png", "image/jpeg", "image/gif", "image/webp"],
    // A thread's PORT goes in its own config (threadParams), not the process's environment.
    threadEnv: true,
    async openSession(input) {
      const configured = resolveCodexConfig(config);
      // The thread's own variables (a PORT) on top; CODEX_HOME stays the adapter's.
      const { CODEX_HOME: _adapters, ...extra } = input.env ?? {};
      const resolved = { ...configured, env: { ...configured.env, ...extra } };
      const client = await CodexAppServerClient.start({
        config: resolved,
        providerSessionId: input.providerSessionId,
        cwd: input.cwd,
        ...(input.rawLog ? { rawLog: input.rawLog } : {}),
      });
      return new CodexSession({
        providerSessionId: input.providerSessionId,
        client,
        capabilities: CODEX_CAPABILITIES,
        defaultModel: input.model ?? resolved.model,
        coalesceMs,
      });
    },
    listModels: () => listCodexModels(config),
    listSessions: (input) => listCodexSessions(config, input),
    readSession: (nativeThreadRef) => readCodexSession(config, nativeThreadRef),
    status: () => codexReadiness(config),
  };
}
