import { readFileSync } from "node:fs";
import path from "node:path";
import { execCommandReply, responsesTextReply } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "./support/orchestrator-harness.ts";
import { pgCodexSetup } from "./support/pg-codex.ts";

// Issue 35 item 3: two instances on one PostgreSQL schema share a CODEX_HOME and a plain (non-git)
// project folder; every run writes a file. A run's checkpoint is captured on whichever instance
// ran it, against the previous run's checkpoint, which the other instance captured: without a
// store both can read, every checkpoint after a hop ended `error` ("parent ref missing").

const HOPS = 10;
/** No login shell (a slow profile would let the turn end first), and time for the command. */
const NO_LOGIN = { extra: { login: false, yield_time_ms: 60_000 } };
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("two API instances on PostgreSQL, real Codex, runs alternating between them", () => {
  it("R2, E7: 10 alternating hops resume the one Codex thread natively and every checkpoint is ready on either instance", async () => {
    const { server, workspace, start } = await pgCodexSetup(cleanups, {
      leaseTtlMs: 2_000,
      workspacePrefix: "skein-hops-cp-ws-",
    });
    const a = await start("A");
    cleanups.push(() => a.close());
    const b = await start("B");
    cleanups.push(() => b.close());

    const { projectId } = await a.client.project.create.mutate({
      name: "plain folder",
      workspaceRoot: workspace,
    });
    const { threadId } = await a.client.thread.create.mutate({
      projectId,
      provider: "codex",
      runtimeMode: "full-access",
    });
    const runIds: string[] = [];
    for (let i = 0; i < HOPS; i += 1) {
      server.enqueue(
        execCommandReply(`printf 'hop ${i}\\n' > hop-${i}.txt`, NO_LOGIN),
        responsesTextReply(`WROTE-${i}`),
      );
      const on = i % 2 === 0 ? a : b;
      const { runId } = await on.client.thread.sendMessage.mutate({ threadId, text: `MSG-${i}` });
      runIds.push(runId);
      const t0 = Date.now();
      await eventually(async () => {
        const detail = await on.client.thread.detail.query({ threadId });
        expect(detail.runs.find((run) => run.id === runId)?.status).toBe("completed");
        expect(detail.checkpoints.find((c) => c.runId === runId)?.status).toMatch(/ready|error/);
      }, 60_000);
      // Sent earlier, the next message would be run by the instance still holding the lease.
      await eventually(async () => expect(await on.store.runtimeLeases.get(threadId)).toBeNull());
      console.log("HOP", i, Date.now() - t0);
    }

    const detail = await b.client.thread.detail.query({ threadId });
    expect(detail.runs.map((run) => run.status)).toEqual(runIds.map(() => "completed"));
    // Native 10 of 10: one Codex thread, no handoff rebuilt from a summary.
    expect(new Set(detail.runs.map((run) => run.providerThreadId)).size).toBe(1);
    expect(detail.transfers).toEqual([]);
    expect(a.opened.length).toBeGreaterThan(0);
    expect(b.opened.length).toBeGreaterThan(0);

    // Every run's checkpoint is ready and lists exactly the file that run wrote: its parent, the
    // previous run's checkpoint taken on the other instance, was resolved.
    const byRun = new Map(detail.checkpoints.map((c) => [c.runId, c]));
    for (const [i, runId] of runIds.entries()) {
      const checkpoint = byRun.get(runId);
      expect({ run: i, status: checkpoint?.status }).toEqual({ run: i, status: "ready" });
      expect(checkpoint?.files.map((f) => f.path)).toEqual([`hop-${i}.txt`]);
      expect(readFileSync(path.join(workspace, `hop-${i}.txt`), "utf8")).toBe(`hop ${i}\n`);
    }
  }, 600_000);
});
