import type {
  ProviderAdapter,
  ProviderCapabilityFlags,
  ProviderSessionHandle,
} from "@skein/domain/provider";

/**
 * A real adapter that reports some capabilities as missing (or present), so a test can force the
 * orchestrator's fallback path on a real runtime: e.g. `{ steer: false }` makes steering restart
 * the attempt instead of using the provider's native steer. Sessions stay the real ones behind a
 * proxy (`instanceof` still holds); only `capabilities` reads differently.
 */
export function withCapabilities(
  adapter: ProviderAdapter,
  overrides: Partial<ProviderCapabilityFlags>,
): ProviderAdapter {
  const capabilities = { ...adapter.capabilities, ...overrides };
  return {
    version: adapter.version,
    provider: adapter.provider,
    capabilities,
    ...(adapter.threadEnv ? { threadEnv: true } : {}),
    status: () => adapter.status(),
    async openSession(input) {
      const handle = await adapter.openSession(input);
      return new Proxy(handle, {
        get(target, key, receiver) {
          if (key === "capabilities") return { ...target.capabilities, ...overrides };
          return Reflect.get(target, key, receiver);
        },
      }) as ProviderSessionHandle;
    },
  };
}
