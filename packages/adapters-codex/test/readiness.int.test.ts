import {
  type CodexTestHome,
  closedLoopbackUrl,
  createCodexTestHome,
  createOpenAiCodexHome,
} from "@skein/fake-models";
import { afterEach, describe, expect, test } from "vitest";
import { createCodexAdapter } from "../src/codex-adapter.ts";

let home: CodexTestHome | null = null;
afterEach(async () => {
  await home?.remove();
  home = null;
});

/** The adapter on `home`, with no key from this machine's environment and no way out. */
function adapterOn(dir: string, deadUrl: string, env: Record<string, string> = {}) {
  return createCodexAdapter({
    codexHome: dir,
    env: {
      RUST_LOG: "error",
      OPENAI_API_KEY: undefined,
      CODEX_API_KEY: undefined,
      OPENAI_BASE_URL: `${deadUrl}/v1`,
      ...env,
    },
  });
}

describe("B15 Codex readiness (real app-server, account/read)", () => {
  test("B15 signed out: not ready, and the reason says to run codex login", async () => {
    const dead = await closedLoopbackUrl();
    home = await createOpenAiCodexHome({ baseUrl: dead });
    const status = await adapterOn(home.dir, dead).status();
    expect(status).toMatchObject({
      found: true,
      version: "0.171.0",
      ready: false,
      auth: { state: "signed-out", method: null },
    });
    expect(status.lastError).toContain(`CODEX_HOME=${home.dir} codex login`);
    expect(status.lastError).toContain("--with-api-key");
    expect(status.auth?.fix).toBe(status.lastError);
  });

  test("B15 an OPENAI_API_KEY the app-server does not read: still not ready, told how to save it", async () => {
    const dead = await closedLoopbackUrl();
    home = await createOpenAiCodexHome({ baseUrl: dead });
    const status = await adapterOn(home.dir, dead, { OPENAI_API_KEY: "sk-test" }).status();
    expect(status.ready).toBe(false);
    expect(status.lastError).toContain(
      "OPENAI_API_KEY is set, but the Codex app-server does not read it",
    );
    expect(status.lastError).toContain("printenv OPENAI_API_KEY |");
  });

  test("B15 an API key saved by codex login: ready, saying how it signs in", async () => {
    const dead = await closedLoopbackUrl();
    home = await createOpenAiCodexHome({ baseUrl: dead, apiKey: "sk-test" });
    await expect(adapterOn(home.dir, dead).status()).resolves.toEqual({
      found: true,
      version: "0.171.0",
      ready: true,
      lastError: null,
      auth: { state: "signed-in", method: "an API key saved by codex login", fix: null },
    });
  });

  test("B15 a configured model provider that needs no OpenAI sign-in: ready", async () => {
    const dead = await closedLoopbackUrl();
    home = await createCodexTestHome({ baseUrl: `${dead}/v1` });
    const status = await adapterOn(home.dir, dead).status();
    expect(status).toMatchObject({ ready: true, lastError: null, auth: { state: "not-required" } });
  });

  test("B15 a binary that is not there: not found, with the fix", async () => {
    const status = await createCodexAdapter({ binaryPath: "/nonexistent/codex" }).status();
    expect(status).toMatchObject({ found: false, ready: false });
    expect(status.lastError).toContain("pnpm install");
  });
});
