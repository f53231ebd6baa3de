import type { RunId } from "@skein/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

/**
 * Issue 33 item 3 through the API: a compaction run is a run (ordinal, graph) but not a turn, so
 * the detail numbers the runs 1, (none), 2 and a fork counts on from the turns, not the runs.
 */
let t: ScriptedTestServer;

beforeAll(async () => {
  t = await startScriptedServer();
});

afterAll(async () => {
  await t.close();
});

async function send(threadId: string, text: string, reply: string): Promise<void> {
  t.codex.enqueue([{ type: "text", text: reply }]);
  const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text });
  await t.orchestrator.waitForRun(runId as RunId);
}

const numbered = async (threadId: string, window?: { limit: number }) => {
  const detail = await t.client.thread.detail.query({ threadId, ...(window ? { window } : {}) });
  return detail.runs.map((run) => [run.ordinal, run.conversationNumber]);
};

describe("E3: run numbers in thread detail", () => {
  it("E3: message, /compact, message: the detail numbers the runs 1, none, 2 (also in a window that starts after the compaction); a fork counts on from 2", async () => {
    const threadId = await t.newThread("Main");
    await send(threadId, "first", "ONE");
    t.codex.enqueue([{ type: "text", text: "compacted" }]);
    const compacted = await t.client.thread.compact.mutate({ threadId });
    await t.orchestrator.waitForRun(compacted.runId as RunId);
    await send(threadId, "second", "TWO");

    expect(await numbered(threadId)).toEqual([
      [1, 1],
      [2, null],
      [3, 2],
    ]);
    // A window holding only the last run still numbers it as the second turn.
    expect(await numbered(threadId, { limit: 1 })).toEqual([[3, 2]]);
    const detail = await t.client.thread.detail.query({ threadId });
    expect(detail.runs[1]).toMatchObject({ compact: true, status: "completed" });
    expect(detail.thread.runCount).toBe(2);

    const fork = await t.client.thread.fork.mutate({ threadId, isolatedWorkspace: false });
    const forkId = fork.threadId;
    await send(forkId, "third", "THREE");
    const forked = await t.client.thread.detail.query({ threadId: forkId });
    expect(forked.thread.title).toBe("fork of Main at run 2");
    expect(forked.thread.inheritance).toMatchObject({ sourceRunOrdinal: 3, runOffset: 2 });
    expect(forked.runs.map((run) => [run.ordinal, run.conversationNumber])).toEqual([[1, 3]]);
  }, 60_000);

  it("E3: a provider switch's handoff text after message, /compact, message numbers the turns 1 and 2, and names the compaction by the turn it follows", async () => {
    const threadId = await t.newThread("Switch");
    await send(threadId, "first ask", "ONE");
    t.codex.enqueue([{ type: "text", text: "compacted" }]);
    const compacted = await t.client.thread.compact.mutate({ threadId });
    await t.orchestrator.waitForRun(compacted.runId as RunId);
    await send(threadId, "second ask", "TWO");

    const draft = await t.client.handoff.draft.query({ threadId, provider: "claude" });
    if (!draft.needed) throw new Error("a switch to claude needs a handoff");
    expect(draft.text).toContain("covers: runs 1–2");
    expect(draft.text).toContain("[run 1 · user] first ask");
    expect(draft.text).toContain("[run 2 · user] second ask");
    expect(draft.text).toMatch(/## compaction after run 1 · codex/);
    expect(draft.text).not.toMatch(/\brun 3\b/);
  }, 60_000);
});
