import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { messageTexts, responsesTextReply } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { useCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import { expectRollbackReplayTouchesNothing, rollbackToRun } from "./support/rollback-replay.ts";

const harness = useCodexSkeinHarness();

describe("Codex through Skein: a replayed rollback changes nothing", () => {
  it("B3: replaying a rollback's commandId after a later run leaves the files, the native thread and the log as they were", async () => {
    const h = await harness();
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

    const { rollback, applied } = await rollbackToRun(h, {
      threadId,
      runId: first.runId,
      commandId: "cmd_rollback_x",
    });
    expect(readFileSync(file, "utf8")).toBe("one\n");
    expect(h.sent("thread/revert")).toHaveLength(1);

    writeFileSync(file, "three\n");
    const third = await h.run(threadId, "message three");
    expect(third.run.status).toBe("completed");
    expect(readFileSync(file, "utf8")).toBe("three\n");
    await expectRollbackReplayTouchesNothing(h, {
      rollback,
      applied,
      file,
      laterRunId: third.runId,
    });
    expect(h.sent("thread/revert")).toHaveLength(1);

    const fourth = await h.run(threadId, "message four");
    expect(fourth.run.status).toBe("completed");
    expect(fourth.run.providerThreadId).toBe(first.run.providerThreadId);
    const users = messageTexts(h.request(-1), "user");
    expect(users).toEqual(expect.arrayContaining(["message one", "message three", "message four"]));
    expect(users).not.toContain("message two");
  }, 90_000);
});
