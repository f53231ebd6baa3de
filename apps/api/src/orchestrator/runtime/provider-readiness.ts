import { PreconditionFailedError, type ProviderKind, ValidationError } from "@skein/domain";
import {
  isConfiguredProviderId,
  type ProviderAdapter,
  type ProviderReadiness,
} from "@skein/domain/provider";

/** A readiness check starts a runtime for a moment; one per provider per this long is enough. */
export const DEFAULT_READINESS_TTL_MS = 30_000;

type Entry = { at: number; result: Promise<ProviderReadiness>; settled: boolean };

/**
 * B15: each provider's readiness (its adapter's `status()`, authentication included), cached
 * briefly so the home page and every message do not each start a runtime. Concurrent callers share
 * one check; `refresh` checks again at once.
 */
export class ProviderReadinessCache {
  private readonly entries = new Map<ProviderKind, Entry>();
  /** What the latest finished check of each provider found. */
  private readonly known = new Map<ProviderKind, ProviderReadiness>();

  constructor(
    private readonly adapterOf: (provider: ProviderKind) => ProviderAdapter | undefined,
    private readonly ttlMs = DEFAULT_READINESS_TTL_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  get(provider: ProviderKind, options: { refresh?: boolean } = {}): Promise<ProviderReadiness> {
    const adapter = this.adapterOf(provider);
    if (!adapter) return Promise.resolve(NOT_CONFIGURED);
    const cached = this.entries.get(provider);
    // A check still running is as fresh as a refresh would be: callers share it.
    if (cached && !cached.settled) return cached.result;
    if (cached && !options.refresh && this.clock() - cached.at < this.ttlMs) return cached.result;
    const entry: Entry = { at: this.clock(), result: check(adapter), settled: false };
    entry.result = entry.result.then((readiness) => {
      entry.settled = true;
      // An older check finishing late does not overwrite what a newer one found.
      if (this.entries.get(provider) === entry) this.known.set(provider, readiness);
      return readiness;
    });
    this.entries.set(provider, entry);
    return entry.result;
  }

  /**
   * Refuses a message to a provider that is not ready, before any work, in the status's own words.
   * A cached "not ready" is checked again first: the person may have just signed in.
   * Only a check that found what is missing refuses; one that could not finish lets it through.
   *
   * Issue 35: a provider whose latest finished check found it ready (or could not finish) is not
   * waited for again. Its re-check, once that answer is older than the TTL, runs in the
   * background: it starts a runtime, which on a loaded server takes seconds (up to the check's
   * 30 s bound), and every message sent meanwhile waited for it; a check that timed out then
   * made each next message start (and wait for) one more. A sign-out shows on the messages after
   * the re-check that finds it.
   */
  async requireReady(provider: ProviderKind): Promise<void> {
    this.requireKnown(provider);
    if (!this.adapterOf(provider)) return; // an unconfigured built-in is refused where it is used
    const known = this.known.get(provider);
    if (known && (known.ready || !proves(known))) {
      void this.get(provider); // checks again only when the answer is stale; never rejects
      return;
    }
    let readiness = await this.get(provider);
    if (!readiness.ready) readiness = await this.get(provider, { refresh: true });
    if (!readiness.ready && proves(readiness)) {
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

/** A check that could not finish (a loaded machine) is no proof: the runtime then says more. */
function proves(readiness: ProviderReadiness): boolean {
  return readiness.auth?.state !== "unknown";
}

async function check(adapter: ProviderAdapter): Promise<ProviderReadiness> {
  try {
    return await adapter.status();
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return { found: false, version: null, ready: false, lastError: text };
  }
}
