import { tmpdir } from "node:os";
import type { ProviderModel } from "@skein/domain/provider";
import { type CodexConfig, resolveCodexConfig } from "./config/codex-config.ts";
import type { ModelListResponse } from "./protocol/index.ts";
import { CodexAppServerClient } from "./rpc/app-server-client.ts";

/** Pages of the catalog read at most; Codex's catalog is a dozen models. */
const MAX_PAGES = 20;

/**
 * The models Codex offers with this configuration (`model/list`), read from a short-lived
 * `codex app-server` that starts no thread: no model request is made.
 */
export async function listCodexModels(config: CodexConfig): Promise<ProviderModel[]> {
  const resolved = resolveCodexConfig(config);
  const client = await CodexAppServerClient.start({
    config: resolved,
    providerSessionId: "model-list",
    cwd: tmpdir(),
  });
  try {
    const models: ProviderModel[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const result: ModelListResponse = await client.request("model/list", { cursor });
      for (const model of result.data) {
        if (model.hidden) continue;
        models.push({
          id: model.model,
          displayName: model.displayName,
          description: model.description,
          isDefault: model.isDefault,
          efforts: model.supportedReasoningEfforts.map((option) => option.reasoningEffort),
          defaultEffort: model.defaultReasoningEffort,
        });
      }
      cursor = result.nextCursor ?? null;
      if (cursor === null) break;
    }
    // Issue 29: `isDefault` in `model/list` is Codex's built-in pick, but a thread started with no
    // model runs on Skein's configured model, else the one in CODEX_HOME's config.toml. That one
    // is the default a person sees, so a run that named none is shown by what it ran on.
    const configured =
      resolved.model ?? (await client.request("config/read", {})).config.model ?? null;
    if (configured !== null && models.some((model) => model.id === configured)) {
      for (const model of models) model.isDefault = model.id === configured;
    }
    return models;
  } finally {
    await client.close();
  }
}
