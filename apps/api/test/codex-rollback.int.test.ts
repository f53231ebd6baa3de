import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execCommandReply, messageTexts, responsesTextReply } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { type CodexSkeinHarness, useCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import {
  expectRollbackReplayTouchesNothing,
  twoRunsRolledBack,
} from "./support/rollback-replay.ts";

const harness = useCodexSkeinHarness();

/** A new Codex thread whose next four runs answer "answer one" to "answer four". */
async function fourAnswers(h: CodexSkeinHarness) {
  const answers = ["answer one", "answer two", "answer three", "answer four"];
  h.server.enqueue(...answers.map((answer) => responsesTextReply(answer)));
  return h.createThread();
}

describe("Codex through Skein: rollback, and its replay", () => {
  it("C3: rollback to run 1 of 3 reverts the native thread; runs 2–3 are rolled_back and the next request lacks them", async () => {
    const h = await harness();
    const threadId = await fourAnswers(h);
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

  it("B14: the agent's shell edits are undone, the person's edit and new file elsewhere survive; a conflict is refused naming it", async () => {
    const h = await harness();
    const noLogin = { extra: { login: false, yield_time_ms: 60_000 } };
    const read = (file: string) => readFileSync(join(h.workspace, file), "utf8");
    const write = (file: string, text: string) => writeFileSync(join(h.workspace, file), text);
    write("README.md", "# mine\n");
    h.server.enqueue(
      execCommandReply("printf 'one\\n' > agent.txt", noLogin),
      responsesTextReply("wrote agent.txt"),
      execCommandReply("printf 'two\\n' > agent.txt && printf 'x\\n' > extra.txt", noLogin),
      responsesTextReply("changed agent.txt, added extra.txt"),
    );
    const threadId = await h.createThread({ runtimeMode: "full-access" });
    const first = await h.run(threadId, "write agent.txt");
    expect(first.run.status).toBe("completed");
    expect(read("agent.txt")).toBe("one\n");
    const second = await h.run(threadId, "change it");
    expect(second.run.status).toBe("completed");
    expect(read("extra.txt")).toBe("x\n");

    write("README.md", "# mine, edited by hand\n");
    write("notes.txt", "my notes\n");
    const state = await h.thread(threadId);
    const checkpoint = [...state.checkpoints.values()].find((c) => c.runId === first.runId)!;
    const preview = await h.orchestrator.rollbackPreview({ threadId, checkpointId: checkpoint.id });
    expect(preview.files.map((f) => f.path).sort()).toEqual(["agent.txt", "extra.txt"]);

    // The person touches an agent file too: refused, naming it, nothing moved.
    write("extra.txt", "the person's line\n");
    await expect(
      h.orchestrator.rollback({ threadId, checkpointId: checkpoint.id }),
    ).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("extra.txt") });
    expect(read("agent.txt")).toBe("two\n");
    expect(h.sent("thread/revert")).toHaveLength(0);

    write("extra.txt", "x\n");
    await h.orchestrator.rollback({ threadId, checkpointId: checkpoint.id });
    expect(read("agent.txt")).toBe("one\n");
    expect(existsSync(join(h.workspace, "extra.txt"))).toBe(false);
    expect(read("README.md")).toBe("# mine, edited by hand\n");
    expect(read("notes.txt")).toBe("my notes\n");
    expect(h.sent("thread/revert")).toHaveLength(1);
    expect((await h.thread(threadId)).runs.get(second.runId)?.status).toBe("rolled_back");
  }, 60_000);

  it("B3: replaying a rollback's commandId after a later run leaves the files, the native thread and the log as they were", async () => {
    const h = await harness();
    const threadId = await fourAnswers(h);
    const file = join(h.workspace, "f.txt");
    const send = (text: string) => h.run(threadId, text);
    const { first, rollback, applied } = await twoRunsRolledBack(h, threadId, send, {
      file,
      commandId: "cmd_rollback_x",
    });
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
