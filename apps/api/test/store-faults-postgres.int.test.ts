import { createScriptedProvider, type ScriptedProvider } from "@skein/scripted-provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eventually } from "./support/orchestrator-harness.ts";
import { type PgInstance, startPgInstance } from "./support/pg-instances.ts";
import { type PrivatePostgres, startPrivatePostgres } from "./support/private-postgres.ts";

// Issue 35 (B1, R2): a PostgreSQL restart while a run streams. The run's append that meets the
// lost connection fails with a typed cause, the run ends instead of staying "running", and once
// the database is back the thread's next message runs. A private server: the shared one on 5432
// is never restarted.

let pg: PrivatePostgres;
let codex: ScriptedProvider;
let api: PgInstance;

beforeEach(async () => {
  pg = await startPrivatePostgres();
  codex = createScriptedProvider({ provider: "codex" });
  api = await startPgInstance({ id: "A", url: pg.url, codex, leaseTtlMs: 5_000 });
}, 60_000);

afterEach(async () => {
  await api?.close().catch(() => undefined);
  pg?.destroy();
});

async function runOf(threadId: string, runId: string) {
  const detail = await api.client.thread.detail.query({ threadId });
  return detail.runs.find((run) => run.id === runId);
}

describe("issue 35: a PostgreSQL restart mid-run [postgres]", () => {
  it("B1: the streaming run ends with its cause in words, and the thread's next message runs", async () => {
    const { projectId } = await api.client.project.create.mutate({
      name: "Demo",
      workspaceRoot: process.cwd(),
      // Skein's own checkout: its threads never get worktrees of it (issue 26).
      settings: { threadWorkspace: "local" },
    });
    const { threadId } = await api.client.thread.create.mutate({ projectId, provider: "codex" });
    codex.enqueue([{ type: "text", text: "z".repeat(2_000), chunks: 500, delayMs: 40 }]);
    const { runId } = await api.client.thread.sendMessage.mutate({ threadId, text: "slow" });
    await eventually(async () => {
      const deltas = (await api.store.readAll(0)).filter((e) => e.type === "ItemDeltaAppended");
      expect(deltas.length).toBeGreaterThan(3);
    });
    await pg.restart();
    // Bounded by the run's own end, not by a clock: it must not stay "running" (it did forever).
    const ended = await eventually(async () => {
      const run = await runOf(threadId, runId);
      expect(run?.status).toMatch(/^(failed|interrupted|completed)$/);
      return run!;
    }, 60_000);
    if (ended.status !== "completed") expect(ended.error).toMatch(/lost its database/);
    codex.enqueue([{ type: "text", text: "after the restart" }]);
    const next = await api.client.thread.sendMessage.mutate({ threadId, text: "again" });
    await eventually(
      async () => expect((await runOf(threadId, next.runId))?.status).toBe("completed"),
      60_000,
    );
  }, 180_000);
});
