import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";
import { refusal } from "./support/errors.ts";
import { until } from "./support/until.ts";

let t: ScriptedTestServer;
beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

type Item = { type: string; runOrdinal: number | null; text?: string };

/** One entry per run header the UI draws: neighbouring items of the same run fold into one. */
function runBlocks(items: readonly Item[]): Array<number | null> {
  const blocks: Array<number | null> = [];
  for (const item of items) if (blocks.at(-1) !== item.runOrdinal) blocks.push(item.runOrdinal);
  return blocks;
}

function texts(items: readonly Item[]): string[] {
  return items.flatMap((item) =>
    item.type === "user_message" || item.type === "assistant_message" ? [item.text ?? ""] : [],
  );
}

describe("a message queued behind a running run (issue 13 item 5)", () => {
  it("projects as one run after the running one, while queued, once done and on a fresh read", async () => {
    const { projectId } = await t.client.project.create.mutate({
      name: "Demo",
      workspaceRoot: t.workspaceDir,
    });
    const { threadId } = await t.client.thread.create.mutate({ projectId, title: "queue" });
    const question = { id: "q_go", question: "Go on?", options: [{ label: "yes" }] };
    t.codex.enqueue([
      { type: "text", text: "a1" },
      { type: "question", questions: [question] },
      { type: "text", text: "a2" },
    ]);
    t.codex.enqueue([{ type: "text", text: "b1" }]);
    await t.client.thread.sendMessage.mutate({ threadId, text: "first" });
    const pending = await until(
      () => t.client.request.pending.query({ threadId }),
      (list) => list.requests.length === 1,
    );
    await t.client.thread.sendMessage.mutate({ threadId, text: "second" });

    const waiting = await t.client.thread.detail.query({ threadId });
    expect(waiting.runs.map((r) => r.status)).toEqual(["waiting", "queued"]);
    expect(runBlocks(waiting.visibleTurnItems ?? waiting.turnItems)).toEqual([1, 2]);

    await t.client.request.respond.mutate({
      requestId: pending.requests[0]!.id,
      decision: "accept",
      answers: { q_go: "yes" },
    });
    const done = await until(
      () => t.client.thread.detail.query({ threadId }),
      (d) => d.runs.length === 2 && d.runs.every((r) => r.status === "completed"),
    );
    expect(texts(done.visibleTurnItems ?? done.turnItems)).toEqual([
      "first",
      "a1",
      "a2",
      "second",
      "b1",
    ]);
    expect(runBlocks(done.visibleTurnItems ?? done.turnItems)).toEqual([1, 2]);

    // What a reload reads: the stored rows, ordered by the store alone.
    const stored = await t.store.snapshot((q) => q.list("turn_items", { threadId }));
    const byKey = [...stored.data]
      .sort((a, b) => a.sortKey - b.sortKey)
      .map((row) => row.data as Item);
    expect(texts(byKey)).toEqual(["first", "a1", "a2", "second", "b1"]);
    expect(runBlocks(byKey)).toEqual([1, 2]);
  });

  it("B20: editing, moving or withdrawing a started message is CONFLICT over tRPC, in words; a bad order changes nothing", async () => {
    const { projectId } = await t.client.project.create.mutate({
      name: "Demo",
      workspaceRoot: t.workspaceDir,
    });
    const { threadId } = await t.client.thread.create.mutate({ projectId, title: "queue" });
    const question = { id: "q_go", question: "Go on?", options: [{ label: "yes" }] };
    t.codex.enqueue([{ type: "question", questions: [question] }]);
    t.codex.enqueue([{ type: "text", text: "b1" }]);
    const { runId: first } = await t.client.thread.sendMessage.mutate({ threadId, text: "first" });
    await until(
      () => t.client.request.pending.query({ threadId }),
      (list) => list.requests.length === 1,
    );
    const { runId: second } = await t.client.thread.sendMessage.mutate({
      threadId,
      text: "second",
    });

    const edit = await refusal(
      t.client.thread.editQueued.mutate({ threadId, runId: first, text: "changed" }),
    );
    expect(edit).toMatchObject({ code: "CONFLICT", domainCode: "conflict" });
    expect(edit.message).toMatch(/message 1 is waiting; it can no longer be edited/);
    const withdraw = await refusal(
      t.client.thread.withdrawQueued.mutate({ threadId, runId: first }),
    );
    expect(withdraw).toMatchObject({ code: "CONFLICT" });
    expect(withdraw.message).toMatch(/can no longer be withdrawn/);
    const stale = await refusal(
      t.client.thread.reorderQueue.mutate({ threadId, runIds: [second, second] }),
    );
    expect(stale).toMatchObject({ code: "CONFLICT" });
    expect(stale.message).toMatch(/the queue changed: 1 message\(s\) wait now/);
    const empty = await refusal(
      t.client.thread.editQueued.mutate({ threadId, runId: second, text: "" }),
    );
    expect(empty.code).toBe("BAD_REQUEST");

    const detail = await t.client.thread.detail.query({ threadId });
    expect(detail.runs.map((r) => [r.ordinal, r.status])).toEqual([
      [1, "waiting"],
      [2, "queued"],
    ]);
    expect(texts(detail.turnItems)).toEqual(["first", "second"]);
  });
});
