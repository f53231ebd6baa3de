import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClaudeAdapter } from "@skein/adapters-claude";
import { createCodexAdapter } from "@skein/adapters-codex";
import { type ProviderKind, type RunId, threadStreamId } from "@skein/domain";
import { type CodexTestHome, closedLoopbackUrl, createOpenAiCodexHome } from "@skein/fake-models";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrchestrator, type Orchestrator } from "../src/orchestrator/index.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

// Signed-in runtimes (fake keys) whose every model URL is a dead loopback port. The bound runs
// from the first retry notice, which is already recorded by then: a short one proves the same.
const BOUND_MS = 3_000;
let t: TestServer & { orchestrator: Orchestrator };
let home: CodexTestHome;
let claudeDir: string;

beforeAll(async () => {
  const dead = await closedLoopbackUrl();
  home = await createOpenAiCodexHome({ baseUrl: dead, apiKey: "sk-test" });
  claudeDir = mkdtempSync(join(tmpdir(), "skein-claude-unreachable-"));
  const codex = createCodexAdapter({
    codexHome: home.dir,
    env: { RUST_LOG: "error", OPENAI_BASE_URL: `${dead}/v1` },
  });
  const claude = createClaudeAdapter({ configDir: claudeDir, baseUrl: dead, apiKey: "test" });
  t = await startTestServer({
    orchestrator: (store, dataDir) =>
      createOrchestrator({
        store,
        adapters: { codex, claude },
        dataDir,
        sessionIdleMs: 0,
        attempts: { unreachableMs: BOUND_MS },
      }),
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await home?.remove();
  rmSync(claudeDir, { recursive: true, force: true });
});

async function runOn(provider: ProviderKind) {
  const { projectId } = await t.client.project.create.mutate({
    name: `Unreachable ${provider}`,
    workspaceRoot: mkdtempSync(join(t.workspaceDir, `${provider}-`)),
  });
  const { threadId } = await t.client.thread.create.mutate({ projectId, title: "Main" });
  const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text: "hi", provider });
  await t.orchestrator.waitForRun(runId);
  const events = await t.store.readStream(threadStreamId(threadId));
  const notices = events.filter((e) => e.type === "RunProgressNoted");
  const finished = events.find((e) => e.type === "RunFinished");
  const detail = await t.client.thread.detail.query({ threadId });
  return { runId: runId as RunId, events, notices, finished, detail };
}

describe("B15 a signed-in runtime that cannot reach its model (real runtimes, dead port)", () => {
  it.each([
    ["codex", /^Codex cannot reach the model: retry \d+ of \d+ \(.+\)$/, "Codex"],
    ["claude", /^Claude Code cannot reach the model: retry \d+ of \d+ \(.+\)$/, "Claude Code"],
  ] as const)(
    "B15 %s: its retries show live on the run, and the run fails with the cause within the bound",
    async (provider, noticeText, name) => {
      const { notices, finished, detail, runId } = await runOn(provider);
      const shown = notices.map((e) => (e.data as { progress: { text: string } | null }).progress);
      // Live: each notice was recorded while the run was running, before it finished.
      expect(shown[0]?.text).toMatch(noticeText);
      if (!finished) throw new Error("the run did not finish");
      const { status, error } = finished.data as { status: string; error: string };
      expect(status).toBe("failed");
      expect(notices[0]?.sequence).toBeLessThan(finished.sequence);
      expect(error).toContain(`The ${name} turn failed: ${name} could not reach the model`);
      expect(error).toMatch(
        /still retrying after 3 s, so Skein stopped the turn|its retries are spent/,
      );
      expect(error).toContain("Check that the server can reach");
      // The runtime already retried: no new attempt of the run, and the notice is gone.
      const run = detail.runs.find((r) => r.id === runId);
      expect(run).toMatchObject({ status: "failed", error });
      expect(run?.progress ?? null).toBeNull();
      expect(detail.attempts.filter((a) => a.runId === runId)).toHaveLength(1);
    },
    90_000,
  );
});
