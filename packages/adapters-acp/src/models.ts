import type { ProviderModel } from "@skein/domain/provider";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The models a `session/new` response offers (`models.availableModels`, the unstable field
 * Gemini CLI and others fill), the current one marked default; empty when the agent lists none.
 */
export function modelsOf(response: unknown): ProviderModel[] {
  const models = isRecord(response) ? response.models : undefined;
  if (!isRecord(models) || !Array.isArray(models.availableModels)) return [];
  const current = typeof models.currentModelId === "string" ? models.currentModelId : null;
  return models.availableModels.flatMap((m) => {
    if (!isRecord(m) || typeof m.modelId !== "string") return [];
    return [
      {
        id: m.modelId,
        displayName: typeof m.name === "string" ? m.name : m.modelId,
        description: typeof m.description === "string" ? m.description : "",
        isDefault: m.modelId === current,
        efforts: [],
        defaultEffort: null,
      },
    ];
  });
}
