import { type ProviderKind, ValidationError } from "@skein/domain";
import type { ProviderModel } from "@skein/domain/provider";

/**
 * A model the provider does not offer (issue 16 item 5): refused before anything is recorded or
 * sent, naming the models it does offer (`issues[0].message`, and `models` for programs).
 */
export class UnknownModelError extends ValidationError {
  constructor(
    readonly provider: ProviderKind,
    readonly model: string,
    readonly models: readonly string[],
  ) {
    const list = `${provider} offers: ${models.join(", ")}`;
    super(`${provider} has no model "${model}"; ${list}`, [{ path: "model", message: list }]);
    this.name = "UnknownModelError";
  }
}

/** A reasoning effort the chosen model does not take, refused with the ones it does. */
export class UnsupportedEffortError extends ValidationError {
  constructor(
    readonly provider: ProviderKind,
    readonly model: string,
    readonly effort: string,
    readonly efforts: readonly string[],
  ) {
    const takes =
      efforts.length > 0
        ? `it takes ${efforts.join(", ")}`
        : "it takes no reasoning effort setting";
    super(`${provider} model "${model}" has no reasoning effort "${effort}"; ${takes}`, [
      { path: "effort", message: takes },
    ]);
    this.name = "UnsupportedEffortError";
  }
}

/**
 * Checks a model and effort choice against the provider's own catalog. A catalog the provider
 * does not have (an adapter without `listModels`, or an empty one) leaves the choice to the
 * provider. `model: null` means the provider's default model, which the effort is checked
 * against when the catalog names one.
 */
export async function checkModelChoice(
  catalog: (provider: ProviderKind) => Promise<ProviderModel[]>,
  choice: { provider: ProviderKind; model: string | null; effort: string | null },
): Promise<void> {
  const { provider, model, effort } = choice;
  if (model === null && effort === null) return;
  const models = await catalog(provider);
  if (models.length === 0) return;
  const entry =
    model === null ? models.find((m) => m.isDefault) : models.find((m) => m.id === model);
  if (model !== null && !entry) {
    throw new UnknownModelError(
      provider,
      model,
      models.map((m) => m.id),
    );
  }
  if (effort !== null && entry && !entry.efforts.includes(effort)) {
    throw new UnsupportedEffortError(provider, entry.id, effort, entry.efforts);
  }
}
