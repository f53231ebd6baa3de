import { messageTexts, responsesTextReply } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "./support/orchestrator-harness.ts";
import { pgCodexSetup } from "./support/pg-codex.ts";

// Issue 14 item 5 with the real `codex app-server`: two instances on one PostgreSQL schema share a
// CODEX_HOME. Codex lets one runtime write a thread at a time, and a runtime keeps the threads it
// loaded, so a message that lands on the other instance used to find its resume refused ("active
// writer") and rebuilt the conversation from a summary on a new Codex thread.

const HOPS = 20;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("two API instances on PostgreSQL, real Codex, messages alternating between them", () => {
  it("R2: every run continues the one Codex thread natively, with its whole history", async () => {
    const { server, workspace, start } = await pgCodexSetup(cleanups, {
      leaseTtlMs: 2_000,
      workspacePrefix: "skein-hops-ws-",
    });
    const a = await start("A");
    cleanups.push(() => a.close());
    const b = await start("B");
    cleanups.push(() => b.close());

    const { projectId } = await a.client.project.create.mutate({
      name: "codex",
      workspaceRoot: workspace,
    });
    const { threadId } = await a.client.thread.create.mutate({ projectId, provider: "codex" });
    for (let i = 0; i < HOPS; i += 1) {
      server.enqueue(responsesTextReply(`ANSWER-${i}`));
      const on = i % 2 === 0 ? a : b;
      const { runId } = await on.client.thread.sendMessage.mutate({ threadId, text: `MSG-${i}` });
      await eventually(async () => {
        const detail = await on.client.thread.detail.query({ threadId });
        expect(detail.runs.find((run) => run.id === runId)?.status).toBe("completed");
      }, 30_000);
      // The next message goes to the other instance once this one has let the thread go: sent
      // earlier, it is run by the instance still holding the lease and the thread never hops.
      await eventually(async () => expect(await on.store.runtimeLeases.get(threadId)).toBeNull());
    }

    const detail = await a.client.thread.detail.query({ threadId });
    expect(detail.runs).toHaveLength(HOPS);
    expect(new Set(detail.runs.map((run) => run.providerThreadId)).size).toBe(1);
    expect(detail.transfers.filter((t) => t.type === "provider_handoff")).toEqual([]);
    // Both instances ran turns: the thread really moved between them.
    expect(a.opened.length).toBeGreaterThan(0);
    expect(b.opened.length).toBeGreaterThan(0);
    const last = server.requests.at(-1);
    if (!last) throw new Error("no model request");
    const users = messageTexts(last, "user").filter((text) => text.startsWith("MSG-"));
    expect(users).toEqual(Array.from({ length: HOPS }, (_, i) => `MSG-${i}`));
    expect(messageTexts(last, "assistant")).toContain(`ANSWER-${HOPS - 2}`);
  }, 600_000);
});
