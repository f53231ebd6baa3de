import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { messageTexts, responsesTextReply } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { type CodexSkeinHarness, createCodexSkeinHarness } from "./support/codex-skein-harness.ts";

let h: CodexSkeinHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe("Codex through Skein: rollback", () => {
  it("C3: rollback to run 1 of 3 reverts the native thread; runs 2–3 are rolled_back and the next request lacks them", async () => {
    h = await createCodexSkeinHarness();
    h.server.enqueue(
      responsesTextReply("answer one"),
      responsesTextReply("answer two"),
      responsesTextReply("answer three"),
      responsesTextReply("answer four"),
    );
    const threadId = await h.createThread();
    const file = join(h.workspace, "notes.txt");
    writeFileSync(file, "after run 1\n");
    const first = await h.run(threadId, "message one");
    writeFileSync(file, "after run 2\n");
    const second = await h.run(threadId, "message two");
    writeFileSync(file, "after run 3\n");
    const third = await h.run(threadId, "message three");

    const state = await h.thread(threadId);
    const checkpoint = [...state.checkpoints.values()].find((c) => c.runId === first.runId)!;
    await h.orchestrator.rollback({ threadId, checkpointId: checkpoint.id });
    expect(readFileSync(file, "utf8")).toBe("after run 1\n");
    expect(h.sent("thread/revert")).toHaveLength(1);
    const after = await h.thread(threadId);
    expect(after.runs.get(second.runId)?.status).toBe("rolled_back");
    expect(after.runs.get(third.runId)?.status).toBe("rolled_back");

    const fourth = await h.run(threadId, "message four");
    expect(fourth.run.status).toBe("completed");
    expect(fourth.run.providerThreadId).toBe(first.run.providerThreadId);
    expect(fourth.run.contextHandoffId).toBeNull();
    const users = messageTexts(h.request(-1), "user");
    expect(users).toEqual(expect.arrayContaining(["message one", "message four"]));
    expect(users).not.toContain("message two");
    expect(users).not.toContain("message three");
  }, 60_000);
});
