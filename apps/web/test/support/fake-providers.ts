import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
// apps/web does not depend on the fake model servers; the suite reaches them by path.
import {
  type CodexTestHome,
  closedLoopbackUrl,
  createCodexTestHome,
  createOpenAiCodexHome,
  type FakeMessagesServer,
  type FakeResponsesServer,
  startFakeMessagesServer,
  startFakeResponsesServer,
} from "../../../../tooling/fake-models/src/index.ts";

export type FakeProviders = {
  openai: FakeResponsesServer;
  anthropic: FakeMessagesServer;
  /** Environment for the API process: the real Codex and Claude, pointed at the fakes. */
  env: Record<string, string>;
  /** A git repository the test project works in. */
  workspace: string;
  close(): Promise<void>;
};

/**
 * Both fake model servers plus a throwaway CODEX_HOME / CLAUDE_CONFIG_DIR. The API inherits its
 * environment into the provider processes (main.ts), exactly as a user's own setup would be used.
 */
export async function startFakeProviders(
  options: {
    codexFeatures?: Record<string, boolean>;
    /** B15: neither runtime signed in, and every model URL a dead loopback port. */
    signedOut?: boolean;
  } = {},
): Promise<FakeProviders> {
  const openai = await startFakeResponsesServer();
  const anthropic = await startFakeMessagesServer();
  const dead = options.signedOut ? await closedLoopbackUrl() : null;
  const codexHome: CodexTestHome = dead
    ? await createOpenAiCodexHome({ baseUrl: dead })
    : await createCodexTestHome({
        baseUrl: openai.url,
        model: "gpt-5.5",
        ...(options.codexFeatures ? { features: options.codexFeatures } : {}),
      });
  const claudeConfig = mkdtempSync(path.join(tmpdir(), "skein-web-claude-"));
  const workspace = mkdtempSync(path.join(tmpdir(), "skein-web-ws-"));
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: workspace,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@example.com",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@example.com",
      },
    });
  git("init", "-q", "-b", "main");
  writeFileSync(path.join(workspace, "README.md"), "# demo\n");
  git("add", "-A");
  git("commit", "-q", "-m", "initial");
  return {
    openai,
    anthropic,
    workspace,
    env: {
      CODEX_HOME: codexHome.dir,
      RUST_LOG: "error",
      ANTHROPIC_BASE_URL: dead ?? anthropic.url,
      ...(dead ? { OPENAI_BASE_URL: `${dead}/v1` } : { ANTHROPIC_API_KEY: "test-key" }),
      CLAUDE_CONFIG_DIR: claudeConfig,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    },
    async close() {
      await openai.close();
      await anthropic.close();
      await codexHome.remove();
      rmSync(claudeConfig, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
