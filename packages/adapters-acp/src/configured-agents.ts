import {
  type ConfiguredProviderId,
  isConfiguredProviderId,
  PROVIDER_ADAPTER_VERSION,
  type ProviderAdapter,
} from "@skein/domain/provider";
import { createAcpAdapter } from "./acp-adapter.ts";
import { type AgentConfigProblem, loadAcpAgents } from "./agents-config.ts";
import { capabilitiesOf } from "./capabilities.ts";

/**
 * A configured agent that cannot be used: `provider.status` shows why, in words, and a message
 * to it is refused with the same words, so the other providers keep working.
 */
export function unavailableAdapter(id: ConfiguredProviderId, words: string): ProviderAdapter {
  return {
    version: PROVIDER_ADAPTER_VERSION,
    provider: id,
    displayName: id,
    capabilities: capabilitiesOf(
      { protocolVersion: 1, agentCapabilities: {} },
      { planMode: false },
    ),
    async openSession() {
      throw new Error(words);
    },
    async status() {
      return { found: false, version: null, ready: false, lastError: words };
    },
  };
}

export type ConfiguredAcpAdapters = {
  /** One adapter per configured id: a live one, or one that reports why it cannot run. */
  adapters: Map<ConfiguredProviderId, ProviderAdapter>;
  /** Entries without a usable id, which cannot be providers: shown to the person as they are. */
  unnamed: AgentConfigProblem[];
};

/**
 * B18: the ACP agents configured by `SKEIN_ACP_AGENTS` or `<dataDir>/agents.json`, as provider
 * adapters keyed by their ids, ready to be registered beside the built-in providers.
 */
export async function configuredAcpAdapters(input: {
  env: Record<string, string | undefined>;
  dataDir: string;
}): Promise<ConfiguredAcpAdapters> {
  const { agents, problems } = await loadAcpAgents(input);
  const adapters = new Map<ConfiguredProviderId, ProviderAdapter>();
  for (const spec of agents) {
    if (isConfiguredProviderId(spec.id)) adapters.set(spec.id, createAcpAdapter(spec));
  }
  const unnamed: AgentConfigProblem[] = [];
  for (const problem of problems) {
    // A problem carries the entry's id only when the id itself was usable (and not a duplicate
    // or a built-in's): then the agent stands as a provider that says what is wrong.
    if (isConfiguredProviderId(problem.id) && !adapters.has(problem.id)) {
      adapters.set(problem.id, unavailableAdapter(problem.id, problem.message));
    } else unnamed.push(problem);
  }
  return { adapters, unnamed };
}
