import { type ProviderKind, ValidationError } from "@skein/domain";
import type { ProviderAdapter, ProviderModel } from "@skein/domain/provider";

/** A catalog read from a runtime is reused this long (reading one starts a process). */
const CATALOG_TTL_MS = 5 * 60_000;

type Cached = { at: number; models: Promise<ProviderModel[]> };

/** The providers' model catalogs, read from their runtimes on demand and kept a few minutes. */
export class ProviderModels {
  private readonly cache = new Map<ProviderKind, Cached>();

  constructor(
    private readonly adapterOf: (provider: ProviderKind) => ProviderAdapter | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  async list(provider: ProviderKind): Promise<ProviderModel[]> {
    const adapter = this.adapterOf(provider);
    if (!adapter) {
      throw new ValidationError(
        `${provider} is not configured on this server, so it has no models to list`,
      );
    }
    if (!adapter.listModels) return [];
    const cached = this.cache.get(provider);
    if (cached && this.now() - cached.at < CATALOG_TTL_MS) return cached.models;
    const models = adapter.listModels().catch((error: unknown) => {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`could not read ${provider}'s models from its runtime: ${why}`);
    });
    this.cache.set(provider, { at: this.now(), models });
    // A failed read is not kept: the next call asks the runtime again.
    models.catch(() => this.cache.delete(provider));
    return models;
  }
}
