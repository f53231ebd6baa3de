"use client";
import { useQuery } from "@tanstack/react-query";
import { useApi } from "./api-context.tsx";
import { PROVIDER_LABEL, providerModel } from "./format.ts";
import { modelLabel } from "./model-label.ts";
import { reads } from "./query/reads.ts";
import { DEFAULT_PROVIDER, type ProviderKind, type ProviderModel } from "./types.ts";

/**
 * The provider's own model catalog (with effort levels); empty until read, or if unreadable.
 * One query per provider for the page load (reading it starts the provider's runtime).
 */
export function useProviderModels(provider: ProviderKind | ""): ProviderModel[] {
  const client = useApi();
  const query = useQuery({
    ...reads.providerModels(client, provider === "" ? DEFAULT_PROVIDER : provider),
    enabled: provider !== "",
  });
  return (provider === "" ? null : query.data) ?? NO_MODELS;
}

const NO_MODELS: ProviderModel[] = [];

/** The effort levels of a model (the provider's default model for an empty name). */
export function effortsOf(models: readonly ProviderModel[], model: string): string[] {
  const entry = model === "" ? models.find((m) => m.isDefault) : models.find((m) => m.id === model);
  return entry ? [...entry.efforts] : [];
}

/**
 * "Codex · GPT-5.5": the provider and the model by its catalog name; a run that named no model
 * shows the provider's default model (what the runtime ran), not "default model".
 */
export function useProviderModelLabel(provider: ProviderKind | null, model: string | null): string {
  const models = useProviderModels(provider ?? "");
  if (provider === null) return providerModel(null, null);
  return `${PROVIDER_LABEL[provider]} · ${modelLabel(models, model)}`;
}
