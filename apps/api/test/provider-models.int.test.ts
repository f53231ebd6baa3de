import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClaudeAdapter } from "@skein/adapters-claude";
import { createCodexAdapter } from "@skein/adapters-codex";
import {
  createCodexTestHome,
  startFakeMessagesServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { createOrchestrator } from "../src/orchestrator/index.ts";
import { refusal } from "./support/errors.ts";
import { startTestServer } from "./support/test-server.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serverWith(providers: { codex?: boolean; claude?: boolean }) {
  const openai = await startFakeResponsesServer();
  cleanups.push(() => openai.close());
  const anthropic = await startFakeMessagesServer();
  cleanups.push(() => anthropic.close());
  const home = await createCodexTestHome({ baseUrl: openai.url, model: "gpt-5.5" });
  cleanups.push(() => home.remove());
  const claudeConfigDir = mkdtempSync(join(tmpdir(), "skein-models-claude-"));
  cleanups.push(() => rmSync(claudeConfigDir, { recursive: true, force: true }));
  const adapters = {
    ...(providers.codex
      ? { codex: createCodexAdapter({ codexHome: home.dir, env: { RUST_LOG: "error" } }) }
      : {}),
    ...(providers.claude
      ? {
          claude: createClaudeAdapter({
            configDir: claudeConfigDir,
            baseUrl: anthropic.url,
            apiKey: "test",
          }),
        }
      : {}),
  };
  const t = await startTestServer({
    orchestrator: (store, dataDir) =>
      createOrchestrator({ store, adapters, dataDir, sessionIdleMs: 0 }),
  });
  cleanups.push(() => t.close());
  return { t, openai, anthropic };
}

describe("provider.models lists what each real runtime offers", () => {
  it("Codex: its model/list catalog with reasoning efforts, one default, no model request", async () => {
    const { t, openai } = await serverWith({ codex: true });
    const models = await t.client.provider.models.query({ provider: "codex" });
    expect(models.length).toBeGreaterThan(0);
    expect(models.filter((m) => m.isDefault)).toHaveLength(1);
    // The default is what a thread naming no model runs on: config.toml's model here (issue 29),
    // not the catalog's built-in pick.
    expect(models.find((m) => m.isDefault)?.id).toBe("gpt-5.5");
    for (const model of models) {
      expect(model.id).toMatch(/\S/);
      expect(model.displayName).toMatch(/\S/);
      expect(model.efforts.length).toBeGreaterThan(0);
      expect(model.efforts).toContain(model.defaultEffort);
    }
    expect(openai.requests).toHaveLength(0);
    // A second read within the catalog's lifetime is served from memory, and equal.
    expect(await t.client.provider.models.query({ provider: "codex" })).toEqual(models);
  }, 60_000);

  it("Claude: the SDK's supportedModels, no model conversation", async () => {
    const { t, anthropic } = await serverWith({ claude: true });
    const models = await t.client.provider.models.query({ provider: "claude" });
    expect(models.length).toBeGreaterThan(0);
    expect(models.filter((m) => m.isDefault)).toHaveLength(1);
    for (const model of models) expect(model.id).toMatch(/\S/);
    expect(anthropic.conversationRequests()).toHaveLength(0);
  }, 90_000);

  it("a provider that is not configured is refused in words, and a bad name by validation", async () => {
    const { t } = await serverWith({ codex: true });
    const notConfigured = await refusal(t.client.provider.models.query({ provider: "claude" }));
    expect(notConfigured.code).toBe("BAD_REQUEST");
    expect(notConfigured.message).toContain("claude is not configured");
    const bad = await refusal(
      t.client.provider.models.query({ provider: "gemini" as unknown as "codex" }),
    );
    expect(bad.code).toBe("BAD_REQUEST");
  }, 60_000);
});
