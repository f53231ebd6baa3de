/**
 * The providers Skein knows, registered once: each id with the names a person knows it by. The
 * domain's provider id (`ProviderKind`), the contract, the web UI's lists and the orchestrator all
 * derive from this; an adapter package's registration (its factory, capabilities, models and
 * readiness) is keyed by these ids in `apps/api/src/providers/provider-registry.ts`.
 */
export const PROVIDERS = {
  codex: { displayName: "Codex", label: "Codex" },
  claude: { displayName: "Claude Code", label: "Claude" },
  gemini: { displayName: "Gemini CLI", label: "Gemini" },
} as const satisfies Record<string, ProviderNames>;

export type ProviderNames = {
  /** The provider's full name, used in what Skein writes (failures, handoffs). */
  displayName: string;
  /** A short label for tight places in the UI (selects, tables). */
  label: string;
};

export type ProviderId = keyof typeof PROVIDERS;

/** Every provider id, in registration order (the first is the default where none is chosen). */
export const PROVIDER_IDS = Object.keys(PROVIDERS) as [ProviderId, ...ProviderId[]];

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === "string" && Object.hasOwn(PROVIDERS, value);
}

/** The name a person knows a provider by; an unknown id is shown as it is. */
export function providerDisplayName(provider: string): string {
  return isProviderId(provider) ? PROVIDERS[provider].displayName : provider;
}
