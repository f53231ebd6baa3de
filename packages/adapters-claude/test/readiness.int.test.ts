import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closedLoopbackUrl } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { createClaudeAdapter } from "../src/claude-adapter.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The adapter on an empty config dir, no credentials from this machine, the model URL dead. */
async function signedOut(env: Record<string, string> = {}) {
  const configDir = mkdtempSync(join(tmpdir(), "skein-claude-ready-"));
  dirs.push(configDir);
  const adapter = createClaudeAdapter({
    configDir,
    baseUrl: await closedLoopbackUrl(),
    env: {
      ANTHROPIC_API_KEY: undefined,
      ANTHROPIC_AUTH_TOKEN: undefined,
      CLAUDE_CODE_OAUTH_TOKEN: undefined,
      CLAUDE_CODE_USE_BEDROCK: undefined,
      CLAUDE_CODE_USE_VERTEX: undefined,
      ...env,
    },
  });
  return { adapter, configDir };
}

describe("B15 Claude readiness (real CLI, claude auth status)", () => {
  it("B15 signed out: not ready, and the reason says /login or which variable to set", async () => {
    const { adapter, configDir } = await signedOut();
    const status = await adapter.status();
    expect(status).toMatchObject({
      found: true,
      version: expect.stringMatching(/Claude Code/),
      ready: false,
      auth: { state: "signed-out", method: null },
    });
    expect(status.lastError).toContain(`CLAUDE_CONFIG_DIR=${configDir} claude`);
    expect(status.lastError).toContain("/login");
    expect(status.lastError).toContain("ANTHROPIC_API_KEY");
  });

  it("B15 an API key in the environment: ready, naming it", async () => {
    const { adapter } = await signedOut({ ANTHROPIC_API_KEY: "sk-ant-test" });
    await expect(adapter.status()).resolves.toMatchObject({
      ready: true,
      lastError: null,
      auth: { state: "signed-in", method: "ANTHROPIC_API_KEY", fix: null },
    });
  });

  it("B15 an auth token in the environment: ready", async () => {
    const { adapter } = await signedOut({ ANTHROPIC_AUTH_TOKEN: "token-test" });
    await expect(adapter.status()).resolves.toMatchObject({
      ready: true,
      auth: { state: "signed-in", method: "an auth token (ANTHROPIC_AUTH_TOKEN)" },
    });
  });

  it("B15 the CLI's own login (credentials file): ready", async () => {
    const { adapter, configDir } = await signedOut();
    const oauth = { accessToken: "a", refreshToken: "r", expiresAt: 1, scopes: ["user:inference"] };
    writeFileSync(join(configDir, ".credentials.json"), JSON.stringify({ claudeAiOauth: oauth }));
    await expect(adapter.status()).resolves.toMatchObject({
      ready: true,
      auth: { state: "signed-in", method: "a Claude account (/login)" },
    });
  });

  it("B15 a binary that is not there: not found, with the fix", async () => {
    const status = await createClaudeAdapter({ executablePath: "/nonexistent/claude" }).status();
    expect(status).toMatchObject({ found: false, ready: false });
    expect(status.lastError).toContain("pnpm install");
  });
});
