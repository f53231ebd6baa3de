import { CodexSession } from "@skein/adapters-codex/testing";
import { messageTexts, responsesSlowTextReply, responsesTextReply } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "./support/orchestrator-harness.ts";
import type { PgInstance } from "./support/pg-instances.ts";
import { pgCodexSetup } from "./support/pg-codex.ts";

// Issue 9 acceptance with the real `codex app-server` (fake Responses API): two in-process API
// instances on one PostgreSQL schema share a CODEX_HOME, as instances on shared storage would.
// Instance A "dies" as a killed process does: its database connections close (it writes nothing
// more and stops renewing its leases) and its Codex process is SIGKILLed.

const LEASE_TTL_MS = 800;
const SLOW = 180_000;
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function runStatus(on: PgInstance, threadId: string, runId: string) {
  const detail = await on.client.thread.detail.query({ threadId });
  return detail.runs.find((run) => run.id === runId)?.status;
}

describe("two API instances on PostgreSQL, real Codex", () => {
  it(
    "A dies mid-run: the run ends interrupted once A's lease expires; the next message, sent to B, resumes the Codex thread with its history",
    async () => {
      const { server, workspace, start } = await pgCodexSetup(cleanups, {
        leaseTtlMs: LEASE_TTL_MS,
        workspacePrefix: "skein-pg-codex-ws-",
      });
      const a = await start("A");
      cleanups.push(() => a.close().catch(() => undefined));
      const b = await start("B");
      cleanups.push(() => b.close());

      server.enqueue(
        responsesTextReply("KILO-ANSWER"),
        responsesSlowTextReply(
          Array.from({ length: 40 }, (_, i) => `slow${i} `),
          250,
        ),
        responsesTextReply("back on B"),
      );
      const { projectId } = await a.client.project.create.mutate({
        name: "codex",
        workspaceRoot: workspace,
      });
      const { threadId } = await a.client.thread.create.mutate({ projectId, provider: "codex" });
      const first = await a.client.thread.sendMessage.mutate({ threadId, text: "KILO-ONE" });
      await eventually(
        async () => expect(await runStatus(b, threadId, first.runId)).toBe("completed"),
        30_000,
      );
      const second = await a.client.thread.sendMessage.mutate({ threadId, text: "second, slowly" });
      await server.waitForRequests(2);
      await eventually(async () =>
        expect(await runStatus(b, threadId, second.runId)).toBe("running"),
      );

      // A dies: no more writes, no more renewals, its Codex process gone.
      a.orchestrator.stopLeaseRenewal();
      await a.store.close();
      const session = a.sessions.at(-1);
      if (!(session instanceof CodexSession) || !session.pid) throw new Error("no Codex session");
      process.kill(session.pid, "SIGKILL");

      // B notices the lapsed lease on its sweep, then ends A's run. Alone this takes seconds; in
      // the full CI run (PostgreSQL shared with the store's 16-writer tests) it once took over
      // 40 s, so the bound is generous and the test's own limit (SLOW) still caps it.
      await eventually(
        async () => expect(await runStatus(b, threadId, second.runId)).toBe("interrupted"),
        100_000,
      );
      const after = await b.client.thread.sendMessage.mutate({ threadId, text: "after A died" });
      await eventually(
        async () => expect(await runStatus(b, threadId, after.runId)).toBe("completed"),
        30_000,
      );
      expect(b.opened).toHaveLength(1);
      const detail = await b.client.thread.detail.query({ threadId });
      const threads = new Set(detail.runs.map((run) => run.providerThreadId));
      expect(threads.size).toBe(1);
      const history = server.requests.at(-1);
      if (!history) throw new Error("no model request");
      expect(messageTexts(history, "user")).toEqual(
        expect.arrayContaining(["KILO-ONE", "after A died"]),
      );
      expect(messageTexts(history, "assistant")).toContain("KILO-ANSWER");
    },
    SLOW,
  );
});
