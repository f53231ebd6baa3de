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

/** A provider built into Skein. */
export type BuiltinProviderId = keyof typeof PROVIDERS;

declare const configured: unique symbol;
/**
 * A provider registered at start-up beside the built-in ones: an ACP agent from the server's
 * configuration (B18: `SKEIN_ACP_AGENTS`, `agents.json`), or a provider package a host registers
 * in code (issue 27: `extra` in `apps/api/src/providers/provider-registry.ts`). Known only at
 * start-up, so the type says only that the id is well formed; whether this server runs it is the
 * registry's answer, and events of a provider since removed still read back.
 */
export type ConfiguredProviderId = string & { readonly [configured]: true };

/** A provider's id: a built-in one, or a configured agent's. */
export type ProviderId = BuiltinProviderId | ConfiguredProviderId;

/** What a configured agent's id looks like: 2–32 lowercase letters, digits or dashes. */
export const CONFIGURED_PROVIDER_ID = /^[a-z][a-z0-9-]{1,31}$/;

/** Every built-in provider id, in registration order (the first is the default where none is chosen). */
export const PROVIDER_IDS = Object.keys(PROVIDERS) as [BuiltinProviderId, ...BuiltinProviderId[]];

export function isBuiltinProviderId(value: unknown): value is BuiltinProviderId {
  return typeof value === "string" && Object.hasOwn(PROVIDERS, value);
}

/** A well-formed configured agent id that no built-in provider holds. */
export function isConfiguredProviderId(value: unknown): value is ConfiguredProviderId {
  return (
    typeof value === "string" && CONFIGURED_PROVIDER_ID.test(value) && !isBuiltinProviderId(value)
  );
}

/** A built-in provider's id or a well-formed configured agent's. */
export function isProviderId(value: unknown): value is ProviderId {
  return isBuiltinProviderId(value) || isConfiguredProviderId(value);
}

/** The name a person knows a provider by; a configured agent's id is shown as it is. */
export function providerDisplayName(provider: string): string {
  return isBuiltinProviderId(provider) ? PROVIDERS[provider].displayName : provider;
}
