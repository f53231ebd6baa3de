import type { ProviderModel } from "./types.ts";

/**
 * How a model is named on screen: its display name from the provider's catalog; for no name
 * (the run left the pick to the provider) the catalog's default model, which is what the runtime
 * resolves an unnamed model to. Only before the catalog is read (or if it cannot be) does it fall
 * back to the id, or to "default model".
 */
export function modelLabel(models: readonly ProviderModel[], model: string | null): string {
  const name = model?.trim() ?? "";
  const entry = name === "" ? models.find((m) => m.isDefault) : models.find((m) => m.id === name);
  if (entry) return entry.displayName.trim() || entry.id;
  return name === "" ? "default model" : name;
}
