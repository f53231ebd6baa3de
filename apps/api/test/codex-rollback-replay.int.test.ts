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

describe("Codex through Skein: a replayed rollback changes nothing", () => {
  it("B3: replaying a rollback's commandId after a later run leaves the files, the native thread and the log as they were", async () => {
    h = await createCodexSkeinHarness();
    h.server.enqueue(
      responsesTextReply("answer one"),
      responsesTextReply("answer two"),
      responsesTextReply("answer three"),
      responsesTextReply("answer four"),
    );
    const threadId = await h.createThread();
    const file = join(h.workspace, "f.txt");
    writeFileSync(file, "one\n");
    const first = await h.run(threadId, "message one");
    writeFileSync(file, "two\n");
    await h.run(threadId, "message two");

    const state = await h.thread(threadId);
    const checkpoint = [...state.checkpoints.values()].find((c) => c.runId === first.runId)!;
    const rollback = { threadId, checkpointId: checkpoint.id, commandId: "cmd_rollback_x" };
    const applied = await h.orchestrator.rollback(rollback);
    expect(readFileSync(file, "utf8")).toBe("one\n");
    expect(h.sent("thread/revert")).toHaveLength(1);

    writeFileSync(file, "three\n");
    const third = await h.run(threadId, "message three");
    expect(third.run.status).toBe("completed");
    const head = await h.store.headSequence();

    const replayed = await h.orchestrator.rollback(rollback);
    expect(replayed).toEqual(applied);
    expect(readFileSync(file, "utf8")).toBe("three\n");
    expect(h.sent("thread/revert")).toHaveLength(1);
    expect(await h.store.headSequence()).toBe(head);
    expect((await h.thread(threadId)).runs.get(third.runId)?.status).toBe("completed");

    // The same id with another checkpoint is refused, and still nothing moves.
    const later = [...(await h.thread(threadId)).checkpoints.values()].find(
      (c) => c.runId === third.runId,
    )!;
    await expect(
      h.orchestrator.rollback({ ...rollback, checkpointId: later.id }),
    ).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringMatching(/thread\.rollback/),
    });
    expect(readFileSync(file, "utf8")).toBe("three\n");
    expect(await h.store.headSequence()).toBe(head);

    const fourth = await h.run(threadId, "message four");
    expect(fourth.run.status).toBe("completed");
    expect(fourth.run.providerThreadId).toBe(first.run.providerThreadId);
    const users = messageTexts(h.request(-1), "user");
    expect(users).toEqual(expect.arrayContaining(["message one", "message three", "message four"]));
    expect(users).not.toContain("message two");
  }, 90_000);
});
