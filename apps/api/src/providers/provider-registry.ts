import {
  configuredAcpAdapters,
  createGeminiAdapter,
  GEMINI_CAPABILITIES,
} from "@skein/adapters-acp";
import { CLAUDE_CAPABILITIES, createClaudeAdapter } from "@skein/adapters-claude";
import { CODEX_CAPABILITIES, createCodexAdapter } from "@skein/adapters-codex";
import {
  type BuiltinProviderId,
  type ConfiguredProviderId,
  isConfiguredProviderId,
  PROVIDER_IDS,
  PROVIDERS,
  type ProviderAdapter,
  type ProviderCapabilityFlags,
  type ProviderId,
  type ProviderModel,
  type ProviderNames,
} from "@skein/domain/provider";
import { ConfigError } from "../env.ts";

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
  id: BuiltinProviderId,
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
} satisfies Record<BuiltinProviderId, ProviderRegistration>;

/** An adapter for every registered provider, as the server starts them. */
export function createRegisteredAdapters(): Record<BuiltinProviderId, ProviderAdapter> {
  return Object.fromEntries(
    PROVIDER_IDS.map((id) => [id, PROVIDER_REGISTRY[id].createAdapter()]),
  ) as Record<BuiltinProviderId, ProviderAdapter>;
}

/**
 * B18: the ACP agents the person configured (`SKEIN_ACP_AGENTS`, else `<dataDir>/agents.json`),
 * registered at start-up beside the built-in ones. An entry with a usable id becomes a provider
 * even when it cannot run (its status says why, in words); a setting that is not a JSON array of
 * agents, or an entry without a usable id, has no provider to say it on, so the server refuses to
 * start with the words instead.
 */
export async function registerConfiguredAgents(input: {
  env: Record<string, string | undefined>;
  dataDir: string;
}): Promise<ProviderRegistration[]> {
  const { adapters, unnamed } = await configuredAcpAdapters(input);
  if (unnamed.length > 0) {
    throw new ConfigError(unnamed.map((problem) => problem.message).join("; "));
  }
  return [...adapters].map(([id, adapter]) => configuredRegistration(id, adapter));
}

function configuredRegistration(
  id: ConfiguredProviderId,
  adapter: ProviderAdapter,
): ProviderRegistration {
  const name = adapter.displayName ?? id;
  return {
    id,
    displayName: name,
    label: name,
    createAdapter: () => adapter,
    // Until the agent has answered `initialize`, only what every ACP agent can do.
    capabilities: adapter.capabilities,
  };
}

/**
 * Issue 27: a provider a host registers in code beside the built-in ones, from its own package,
 * with no line in the domain's list: a test proving that a provider package plugs in (the
 * scripted agent, `packages/adapters-scripted`), or an embedder's own. Its id is shaped like a
 * configured agent's, so the domain, the contract and the web UI take it as they take those;
 * `main.ts` adds none, so a person never meets one they did not register.
 */
export type ExtraRegistration = Omit<ProviderRegistration, "id"> & { id: string };

/**
 * Every provider the server runs, once: the built-in ones, the configured agents, then the
 * extra registrations. An extra one whose id is malformed, a built-in's or already taken is
 * refused in words (a ConfigError) and nothing is registered.
 */
export async function providerRegistry(input: {
  env: Record<string, string | undefined>;
  dataDir: string;
  extra?: readonly ExtraRegistration[];
}): Promise<ProviderRegistration[]> {
  const registry: ProviderRegistration[] = [
    ...PROVIDER_IDS.map((id) => PROVIDER_REGISTRY[id]),
    ...(await registerConfiguredAgents(input)),
  ];
  const taken = new Set<string>(registry.map((registered) => registered.id));
  const refused: string[] = [];
  const extra: ProviderRegistration[] = [];
  for (const registered of input.extra ?? []) {
    const { id } = registered;
    if (taken.has(id)) refused.push(`provider "${id}" is already registered`);
    else if (!isConfiguredProviderId(id)) {
      refused.push(`"${id}" is not a usable provider id (2–32 lowercase letters, digits, dashes)`);
    } else extra.push({ ...registered, id });
    taken.add(id);
  }
  if (refused.length > 0) throw new ConfigError(refused.join("; "));
  return [...registry, ...extra];
}

/** The adapters the server runs: one for each provider of the registry, in its order. */
export async function createServerAdapters(input: {
  env: Record<string, string | undefined>;
  dataDir: string;
  extra?: readonly ExtraRegistration[];
}): Promise<Partial<Record<ProviderId, ProviderAdapter>>> {
  const registry = await providerRegistry(input);
  return Object.fromEntries(
    registry.map((registered) => [registered.id, registered.createAdapter()]),
  ) as Partial<Record<ProviderId, ProviderAdapter>>;
}
