import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

let t: ScriptedTestServer;

beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

async function shellOf(threadId: string) {
  const page = await t.client.thread.shells.query({});
  const shell = page.threads.find((row) => row.id === threadId);
  if (!shell) throw new Error(`no shell for ${threadId}`);
  return shell;
}

async function runOn(threadId: string, provider: "codex" | "claude") {
  const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text: "go", provider });
  await t.orchestrator.waitForRun(runId);
  const detail = await t.client.thread.detail.query({ threadId });
  const run = detail.runs.find((r) => r.id === runId);
  if (!run?.completedAt) throw new Error(`run ${runId} did not end`);
  return run;
}

/**
 * Issue 29: the sidebar row's provider mark and "unread" state come from two small shell fields,
 * kept current as runs end (the row is read for every thread, so nothing larger).
 */
describe("thread shell: the latest run's provider and when the last run ended", () => {
  it("are absent before any run, then follow each run as it ends, on any provider", async () => {
    const threadId = await t.newThread();
    const fresh = await shellOf(threadId);
    expect(fresh.lastRunProvider).toBeUndefined();
    expect(fresh.lastRunEndedAt).toBeUndefined();

    const first = await runOn(threadId, "codex");
    const afterCodex = await shellOf(threadId);
    expect(afterCodex.lastRunProvider).toBe("codex");
    expect(afterCodex.lastRunEndedAt).toBe(first.completedAt);

    const second = await runOn(threadId, "claude");
    const afterClaude = await shellOf(threadId);
    expect(afterClaude.lastRunProvider).toBe("claude");
    expect(afterClaude.lastRunEndedAt).toBe(second.completedAt);
    expect(afterClaude.lastRunEndedAt).not.toBe(first.completedAt);

    // The one-run detail read the sidebar refreshes a row from carries the same fields.
    const detail = await t.client.thread.detail.query({ threadId, window: { limit: 1 } });
    expect(detail.thread.lastRunProvider).toBe("claude");
    expect(detail.thread.lastRunEndedAt).toBe(second.completedAt);
  });
});
