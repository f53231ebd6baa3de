import { spawn } from "node:child_process";
import fs from "node:fs";
import {
  anthropicRequestText,
  type CodexTestHome,
  conversationText,
  createCodexTestHome,
  type FakeMessagesServer,
  type FakeResponsesServer,
  responsesTextReply,
  anthropicTextReply,
  startFakeMessagesServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { API_DIR, type ChildServer, spawnEntry, TSX_LOADER } from "./support/child-server.ts";
import { tempDir } from "./support/test-server.ts";

// Real `codex app-server`, real Claude Code, two Node processes besides this one: roomy budget.
const SLOW = 180_000;

type Report = {
  threadId: string;
  forkThreadId: string;
  firstRun: { status: string | null; provider: string | null };
  watchedSequences: number[];
  forkGraph: { providerThreads: number; providerSessions: number; providerTurns: number };
  transferBeforeSend: string;
  forkRun: { status: string | null; provider: string | null };
  transfer: { status: string; strategy: string | null; consumedByRunId: string | null };
  onForkRunId: string;
  claudeRun: { status: string | null; provider: string | null };
  backRun: { status: string | null; provider: string | null };
  mergeBack: { sourceThreadId: string; status: string; handoffKind: string | null } | null;
  forkProviders: string[];
  sourceProviders: string[];
};

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function temp(prefix: string): string {
  const dir = tempDir(prefix);
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Skein as a user starts it (`src/main.ts`), providers configured only through the environment. */
async function startApi(openai: FakeResponsesServer, anthropic: FakeMessagesServer) {
  const home: CodexTestHome = await createCodexTestHome({ baseUrl: openai.url, model: "gpt-5.5" });
  cleanups.push(() => home.remove());
  const server: ChildServer = spawnEntry("src/main.ts", {
    SKEIN_API_PORT: "0",
    SKEIN_DATA_DIR: temp("skein-accept-data-"),
    CODEX_HOME: home.dir,
    RUST_LOG: "error",
    ANTHROPIC_BASE_URL: anthropic.url,
    ANTHROPIC_API_KEY: "dummy",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CONFIG_DIR: temp("skein-accept-claude-"),
  });
  cleanups.push(async () => {
    if (server.child.exitCode === null) server.child.kill("SIGTERM");
    await server.exited;
  });
  await server.ready;
  return server;
}

/** Runs the typed-client fixture as its own Node process and parses its JSON report. */
function runClient(url: string, workspace: string): Promise<Report> {
  const child = spawn(
    process.execPath,
    ["--import", TSX_LOADER, "test/fixtures/acceptance-client.ts"],
    {
      cwd: API_DIR,
      env: { ...process.env, SKEIN_URL: url, WORKSPACE: workspace },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  cleanups.push(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => {
      if (code !== 0) reject(new Error(`client exited with ${code}:\n${stderr}`));
      else resolve(JSON.parse(stdout) as Report);
    });
  });
}

describe("issue 7 acceptance: a separate process drives real Codex and Claude through the typed client", () => {
  it(
    "message → watchDetail sees it complete → fork latest_stable (no provider thread) → native fork on send → Claude → bring back",
    async () => {
      const openai = await startFakeResponsesServer();
      cleanups.push(() => openai.close());
      const anthropic = await startFakeMessagesServer();
      cleanups.push(() => anthropic.close());
      openai.enqueue(
        responsesTextReply("ANSWER-ONE"),
        responsesTextReply("ANSWER-AFTER-FORK"),
        responsesTextReply("FORK-ANSWER"),
        responsesTextReply("BACK-ANSWER"),
      );
      anthropic.enqueue(anthropicTextReply("CLAUDE-ANSWER"));
      const api = await startApi(openai, anthropic);

      const report = await runClient(api.url, temp("skein-accept-ws-"));

      expect(report.firstRun).toEqual({ status: "completed", provider: "codex" });
      expect(report.watchedSequences.length).toBeGreaterThan(0);
      expect(report.watchedSequences).toEqual([...report.watchedSequences].sort((a, b) => a - b));
      expect(report.forkGraph).toEqual({
        providerThreads: 0,
        providerSessions: 0,
        providerTurns: 0,
      });
      expect(report.transferBeforeSend).not.toBe("consumed");
      expect(report.forkRun).toEqual({ status: "completed", provider: "codex" });
      expect(report.transfer).toEqual({
        status: "consumed",
        strategy: "native_fork",
        consumedByRunId: report.onForkRunId,
      });
      expect(report.claudeRun).toEqual({ status: "completed", provider: "claude" });
      expect(report.backRun).toEqual({ status: "completed", provider: "codex" });
      expect(report.mergeBack).toEqual({
        sourceThreadId: report.forkThreadId,
        status: "consumed",
        handoffKind: "delta_context",
      });
      expect(report.forkProviders.sort()).toEqual(["claude", "codex"]);
      expect(report.sourceProviders).toEqual(["codex", "codex", "codex"]);

      // What the real Codex sent the model for the fork: the source's history up to the fork
      // point and the fork's own message, nothing the source did afterwards.
      const texts = openai.requests.map(conversationText);
      const forkRequest = texts.find((text) => text.includes("FORK-MESSAGE"));
      expect(forkRequest).toBeDefined();
      expect(forkRequest).toContain("TURN-ONE");
      expect(forkRequest).toContain("ANSWER-ONE");
      expect(forkRequest).not.toContain("SOURCE-AFTER-FORK");
      expect(forkRequest).not.toContain("ANSWER-AFTER-FORK");
      // Claude continued the fork with its history (handed over), and the source got it back.
      const claudeRequest = anthropic
        .conversationRequests()
        .filter((r) => r.agent === "main")
        .map(anthropicRequestText)
        .find((text) => text.includes("ON-CLAUDE"));
      expect(claudeRequest).toContain("FORK-ANSWER");
      expect(claudeRequest).not.toContain("SOURCE-AFTER-FORK");
      const backRequest = texts.find((text) => text.includes("BRING-BACK"));
      expect(backRequest).toContain("CLAUDE-ANSWER");
    },
    SLOW,
  );
});
