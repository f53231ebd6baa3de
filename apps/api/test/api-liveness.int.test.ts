import fs from "node:fs";
import {
  anthropicSlowTextReply,
  type CodexTestHome,
  createCodexTestHome,
  type FakeResponsesServer,
  responsesSlowTextReply,
  startFakeMessagesServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { createSkeinClient, type SkeinClient } from "../src/client.ts";
import { type ChildServer, spawnEntry } from "./support/child-server.ts";
import { tempDir } from "./support/test-server.ts";

/** The server must answer within this, whatever its threads' runs are doing. */
const HEALTH_WITHIN_MS = 1_000;
/** SIGTERM must stop it within this. */
const STOP_WITHIN_MS = 8_000;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function scratch(prefix: string): string {
  const dir = tempDir(prefix);
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Health answered `rounds` times in a row, each within HEALTH_WITHIN_MS (tRPC and /healthz). */
async function expectResponsive(client: SkeinClient, url: string, rounds: number) {
  for (let i = 0; i < rounds; i += 1) {
    const signal = AbortSignal.timeout(HEALTH_WITHIN_MS);
    await expect(client.health.query(undefined, { signal })).resolves.toMatchObject({ ok: true });
    const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(HEALTH_WITHIN_MS) });
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function exitsWithin(server: ChildServer, ms: number): Promise<number | null | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  const outcome = await Promise.race([server.exited, timeout]);
  clearTimeout(timer);
  return outcome;
}

/** The run's status as the API reports it. */
async function statusOf(client: SkeinClient, threadId: string, runId: string) {
  const detail = await client.thread.detail.query({ threadId: threadId as never });
  return detail.runs.find((run) => run.id === runId)?.status;
}

describe("the server process stays responsive (real Codex app-server and real Claude Agent SDK)", () => {
  it("health answers within a second and SIGTERM stops it while Codex and Claude runs hang, fail to start and queue", async () => {
    const model: FakeResponsesServer = await startFakeResponsesServer({
      // A model that starts its answer and then goes silent: the run stays in flight.
      defaultReply: responsesSlowTextReply(["thinking", " still"], 60_000),
    });
    cleanups.push(() => model.close());
    const home: CodexTestHome = await createCodexTestHome({ baseUrl: model.url, model: "gpt-5.5" });
    cleanups.push(() => home.remove());
    // The same for Claude: the answer starts, then one character a minute.
    const anthropic = await startFakeMessagesServer({
      defaultReply: anthropicSlowTextReply("thinking still", 60_000),
    });
    cleanups.push(() => anthropic.close());
    const server = spawnEntry("src/main.ts", {
      SKEIN_API_PORT: "0",
      SKEIN_DATA_DIR: scratch("skein-live-data-"),
      CODEX_HOME: home.dir,
      RUST_LOG: "error",
      CLAUDE_CONFIG_DIR: scratch("skein-live-claude-"),
      ANTHROPIC_BASE_URL: anthropic.url,
      ANTHROPIC_API_KEY: "test",
    });
    cleanups.push(async () => {
      if (server.child.exitCode === null) server.child.kill("SIGKILL");
      await server.exited;
    });
    await server.ready;
    const client = createSkeinClient({ url: server.url });

    const hungFolder = scratch("skein-live-ws-");
    const hung = await client.project.create.mutate({ name: "hung", workspaceRoot: hungFolder });
    const hungThread = await client.thread.create.mutate({ projectId: hung.projectId });
    const running = await client.thread.sendMessage.mutate({
      threadId: hungThread.threadId,
      text: "take your time",
    });
    await client.thread.sendMessage.mutate({ threadId: hungThread.threadId, text: "queued" });
    const claudeThread = await client.thread.create.mutate({
      projectId: hung.projectId,
      provider: "claude",
    });
    const claudeRunning = await client.thread.sendMessage.mutate({
      threadId: claudeThread.threadId,
      text: "take your time too",
    });
    await client.thread.sendMessage.mutate({ threadId: claudeThread.threadId, text: "queued" });

    const goneFolder = scratch("skein-live-gone-");
    const gone = await client.project.create.mutate({ name: "gone", workspaceRoot: goneFolder });
    const goneThread = await client.thread.create.mutate({ projectId: gone.projectId });
    fs.rmSync(goneFolder, { recursive: true, force: true });
    const failing: Array<{ runId: string }> = [];
    for (const text of ["one", "two", "three", "four", "five"]) {
      failing.push(await client.thread.sendMessage.mutate({ threadId: goneThread.threadId, text }));
    }
    await expectResponsive(client, server.url, 10);
    // The folder comes back while runs are still queued (once a loop that pinned the CPU).
    fs.mkdirSync(goneFolder);
    await expectResponsive(client, server.url, 10);

    // The hung run started (the model holds it); under load Codex may take a while to get there.
    await expect
      .poll(() => statusOf(client, hungThread.threadId, running.runId), { timeout: 30_000 })
      .toBe("running");
    // The hung Claude run reached the model, which holds it.
    await expect
      .poll(() => anthropic.conversationRequests().length, { timeout: 60_000 })
      .toBeGreaterThan(0);
    expect(await statusOf(client, claudeThread.threadId, claudeRunning.runId)).toBe("running");
    await expectResponsive(client, server.url, 10);
    const after = await client.thread.detail.query({ threadId: goneThread.threadId });
    const first = after.runs.find((run) => run.id === failing[0]!.runId);
    expect(first?.status).toBe("failed");
    expect(first?.error).toContain(goneFolder);

    server.child.kill("SIGTERM");
    expect(await exitsWithin(server, STOP_WITHIN_MS)).toBe(0);
  }, 150_000);
});
