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
  const client = await CodexAppServerClient.start({
    config: resolveCodexConfig(config),
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
    return models;
  } finally {
    await client.close();
  }
}
