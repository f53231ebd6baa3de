"use client";
import type { SkeinClient } from "@skein/contract";
import { useEffect, useState } from "react";
import { useApi } from "./api-context.tsx";
import { PROVIDER_LABEL, providerModel } from "./format.ts";
import { modelLabel } from "./model-label.ts";
import type { ProviderKind, ProviderModel } from "./types.ts";

// Reading a catalog starts the provider's runtime on the server: one read per provider per page.
const catalogs = new Map<ProviderKind, Promise<ProviderModel[]>>();

function catalogOf(client: SkeinClient, provider: ProviderKind): Promise<ProviderModel[]> {
  let catalog = catalogs.get(provider);
  if (!catalog) {
    catalog = client.provider.models.query({ provider });
    // A failed read (provider not set up) is not kept: the next look asks again.
    catalog.catch(() => catalogs.delete(provider));
    catalogs.set(provider, catalog);
  }
  return catalog;
}

/** The provider's own model catalog (with effort levels); empty until read, or if unreadable. */
export function useProviderModels(provider: ProviderKind | ""): ProviderModel[] {
  const client = useApi();
  const [models, setModels] = useState<ProviderModel[]>([]);
  useEffect(() => {
    setModels([]);
    if (provider === "") return;
    let live = true;
    catalogOf(client, provider).then(
      (list) => live && setModels(list),
      () => live && setModels([]),
    );
    return () => {
      live = false;
    };
  }, [client, provider]);
  return models;
}

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
