import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClaudeAdapter } from "@skein/adapters-claude";
import { createCodexAdapter } from "@skein/adapters-codex";
import { type CodexTestHome, closedLoopbackUrl, createOpenAiCodexHome } from "@skein/fake-models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrchestrator } from "../src/orchestrator/index.ts";
import { refusal } from "./support/errors.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

// Signed-out real runtimes: no credentials anywhere, every model URL a dead loopback port.
let t: TestServer;
let home: CodexTestHome;
let claudeDir: string;

beforeAll(async () => {
  const dead = await closedLoopbackUrl();
  home = await createOpenAiCodexHome({ baseUrl: dead });
  claudeDir = mkdtempSync(join(tmpdir(), "skein-claude-signed-out-"));
  const codex = createCodexAdapter({
    codexHome: home.dir,
    env: { RUST_LOG: "error", OPENAI_API_KEY: undefined, CODEX_API_KEY: undefined },
  });
  const claude = createClaudeAdapter({
    configDir: claudeDir,
    baseUrl: dead,
    env: { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined },
  });
  t = await startTestServer({
    orchestrator: (store, dataDir) =>
      createOrchestrator({ store, adapters: { codex, claude }, dataDir, sessionIdleMs: 0 }),
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await home?.remove();
  rmSync(claudeDir, { recursive: true, force: true });
});

describe("B15 provider readiness over the API (real Codex and Claude, signed out)", () => {
  it("B15 provider.status: both not ready, each with its fix in words", async () => {
    const statuses = await t.client.provider.status.query();
    const codex = statuses.find((s) => s.provider === "codex");
    const claude = statuses.find((s) => s.provider === "claude");
    expect(codex).toMatchObject({ found: true, ready: false, auth: { state: "signed-out" } });
    expect(codex?.lastError).toMatch(/^Codex is not signed in\. Run `CODEX_HOME=.* codex login`/);
    expect(claude).toMatchObject({ found: true, ready: false, auth: { state: "signed-out" } });
    expect(claude?.lastError).toMatch(/^Claude is not signed in\. .*\/login.*ANTHROPIC_API_KEY/);
  });

  it("B15 a message to a provider that is not ready is refused in the same words; nothing appended", async () => {
    const { projectId } = await t.client.project.create.mutate({
      name: "First run",
      workspaceRoot: t.workspaceDir,
    });
    const { threadId } = await t.client.thread.create.mutate({ projectId, title: "Main" });
    const statuses = await t.client.provider.status.query();
    for (const provider of ["codex", "claude"] as const) {
      const head = await t.store.headSequence();
      const refused = await refusal(
        t.client.thread.sendMessage.mutate({ threadId, text: "hello", provider }),
      );
      expect(refused.code).toBe("PRECONDITION_FAILED");
      expect(refused.message).toBe(statuses.find((s) => s.provider === provider)?.lastError);
      expect(await t.store.headSequence()).toBe(head);
    }
    const detail = await t.client.thread.detail.query({ threadId });
    expect(detail.runs).toEqual([]);
  });

  it("B15 the status is cached briefly; refresh checks again (signing in shows at once)", async () => {
    const before = await t.client.provider.status.query();
    expect(before.find((s) => s.provider === "codex")?.ready).toBe(false);
    // What `codex login --with-api-key` saves.
    writeFileSync(
      join(home.dir, "auth.json"),
      JSON.stringify({ auth_mode: "apikey", OPENAI_API_KEY: "sk-test" }),
    );
    const cached = await t.client.provider.status.query();
    expect(cached.find((s) => s.provider === "codex")?.ready).toBe(false);
    const fresh = await t.client.provider.status.query({ refresh: true });
    expect(fresh.find((s) => s.provider === "codex")).toMatchObject({
      ready: true,
      lastError: null,
      auth: { state: "signed-in", method: "an API key saved by codex login" },
    });
    rmSync(join(home.dir, "auth.json"));
    await t.client.provider.status.query({ refresh: true });
  });
});
