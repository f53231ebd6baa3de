import { PreconditionFailedError, type ProviderKind, ValidationError } from "@skein/domain";
import {
  isConfiguredProviderId,
  type ProviderAdapter,
  type ProviderReadiness,
} from "@skein/domain/provider";

/** A readiness check starts a runtime for a moment; one per provider per this long is enough. */
export const DEFAULT_READINESS_TTL_MS = 30_000;

type Entry = { at: number; result: Promise<ProviderReadiness> };

/**
 * B15: each provider's readiness (its adapter's `status()`, authentication included), cached
 * briefly so the home page and every message do not each start a runtime. Concurrent callers share
 * one check; `refresh` checks again at once.
 */
export class ProviderReadinessCache {
  private readonly entries = new Map<ProviderKind, Entry>();

  constructor(
    private readonly adapterOf: (provider: ProviderKind) => ProviderAdapter | undefined,
    private readonly ttlMs = DEFAULT_READINESS_TTL_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  get(provider: ProviderKind, options: { refresh?: boolean } = {}): Promise<ProviderReadiness> {
    const adapter = this.adapterOf(provider);
    if (!adapter) return Promise.resolve(NOT_CONFIGURED);
    const cached = this.entries.get(provider);
    if (cached && !options.refresh && this.clock() - cached.at < this.ttlMs) return cached.result;
    const result = check(adapter);
    this.entries.set(provider, { at: this.clock(), result });
    return result;
  }

  /**
   * Refuses a message to a provider that is not ready, before any work, in the status's own words.
   * A cached "not ready" is checked again first: the person may have just signed in.
   * Only a check that found what is missing refuses; one that could not finish lets it through.
   */
  async requireReady(provider: ProviderKind): Promise<void> {
    this.requireKnown(provider);
    if (!this.adapterOf(provider)) return; // an unconfigured built-in is refused where it is used
    let readiness = await this.get(provider);
    if (!readiness.ready) readiness = await this.get(provider, { refresh: true });
    // A check that could not finish (a loaded machine) is no proof: the runtime then says more.
    if (!readiness.ready && readiness.auth?.state !== "unknown") {
      throw new PreconditionFailedError(readiness.lastError ?? `${provider} is not ready.`);
    }
  }

  /**
   * B18: a configured agent's id this server does not run (never configured, or since removed) is
   * refused before anything is recorded, naming where agents are configured.
   */
  requireKnown(provider: ProviderKind): void {
    if (this.adapterOf(provider) || !isConfiguredProviderId(provider)) return;
    throw new ValidationError(
      `no provider "${provider}" runs on this server: ACP agents are configured in SKEIN_ACP_AGENTS or <data dir>/agents.json`,
      [{ path: "provider", message: `unknown provider ${provider}` }],
    );
  }
}

const NOT_CONFIGURED: ProviderReadiness = {
  found: false,
  version: null,
  ready: false,
  lastError: "not configured",
};

async function check(adapter: ProviderAdapter): Promise<ProviderReadiness> {
  try {
    return await adapter.status();
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return { found: false, version: null, ready: false, lastError: text };
  }
}
