import { createGeminiAdapter, GEMINI_CAPABILITIES } from "@skein/adapters-acp";
import { CLAUDE_CAPABILITIES, createClaudeAdapter } from "@skein/adapters-claude";
import { CODEX_CAPABILITIES, createCodexAdapter } from "@skein/adapters-codex";
import {
  PROVIDER_IDS,
  PROVIDERS,
  type ProviderAdapter,
  type ProviderCapabilityFlags,
  type ProviderId,
  type ProviderModel,
  type ProviderNames,
} from "@skein/domain/provider";

/**
 * One provider as the server plugs it in. Its id and names come from the domain's list
 * (`@skein/domain/provider` `PROVIDERS`); everything the server needs to run it is here.
 */
export type ProviderRegistration = ProviderNames & {
  id: ProviderId;
  /**
   * Opens the adapter on the server's own environment: the user's Codex / Claude Code setup
   * (CODEX_HOME, ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY, CLAUDE_CONFIG_DIR…) and, with no model
   * chosen, the provider's default.
   */
  createAdapter(): ProviderAdapter;
  /** What it can do, known without starting a runtime (the README table is generated from it). */
  capabilities: ProviderCapabilityFlags;
  /** Its models where they are known without a runtime; absent: the adapter's own catalog. */
  models?: () => Promise<ProviderModel[]>;
  /**
   * Issue 26: a check that the provider is ready to run a turn (binary, login, model service),
   * without running one. Absent: the adapter's `status()` stands in.
   */
  readiness?: (adapter: ProviderAdapter) => Promise<{ ready: boolean; problem: string | null }>;
};

function registration(
  id: ProviderId,
  rest: Omit<ProviderRegistration, "id" | keyof ProviderNames>,
): ProviderRegistration {
  return { id, ...PROVIDERS[id], ...rest };
}

/** Every provider the server can run, once; a new provider package adds its line here. */
export const PROVIDER_REGISTRY = {
  codex: registration("codex", {
    createAdapter: () => createCodexAdapter(),
    capabilities: CODEX_CAPABILITIES,
  }),
  claude: registration("claude", {
    createAdapter: () => createClaudeAdapter(),
    capabilities: CLAUDE_CAPABILITIES,
  }),
  // Gemini CLI over ACP: the person's own ~/.gemini settings and GEMINI_API_KEY / sign-in.
  gemini: registration("gemini", {
    createAdapter: () => createGeminiAdapter(),
    capabilities: GEMINI_CAPABILITIES,
  }),
} satisfies Record<ProviderId, ProviderRegistration>;

/** An adapter for every registered provider, as the server starts them. */
export function createRegisteredAdapters(): Record<ProviderId, ProviderAdapter> {
  return Object.fromEntries(
    PROVIDER_IDS.map((id) => [id, PROVIDER_REGISTRY[id].createAdapter()]),
  ) as Record<ProviderId, ProviderAdapter>;
}
