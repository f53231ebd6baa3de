import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicBashReply, anthropicTextReply, anthropicUserTexts } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { type ClaudeSkeinHarness, useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";
import {
  expectRollbackReplayTouchesNothing,
  twoRunsRolledBack,
} from "./support/rollback-replay.ts";

const harness = useClaudeSkeinHarness();

/** A new Claude thread whose next four runs answer "answer one" to "answer four". */
async function fourAnswers(h: ClaudeSkeinHarness) {
  const answers = ["answer one", "answer two", "answer three", "answer four"];
  h.anthropic.enqueue(...answers.map((answer) => anthropicTextReply(answer)));
  return h.createThread({ provider: "claude" });
}

describe("Claude through Skein: rollback, and its replay", () => {
  it("rollback to run 1 of 3 restores the files, marks runs 2–3 rolled_back and the next request lacks them", async () => {
    const h = await harness({ codex: "none" });
    const threadId = await fourAnswers(h);
    const file = join(h.workspaceRoot, "notes.txt");
    const write = (text: string) => writeFileSync(file, text);
    write("state after run 1\n");
    const first = await h.send(threadId, "message one");
    write("state after run 2\n");
    const second = await h.send(threadId, "message two");
    write("state after run 3\n");
    const third = await h.send(threadId, "message three");

    const state = await h.thread(threadId);
    const checkpoint = [...state.checkpoints.values()].find((c) => c.runId === first.runId)!;
    await h.orchestrator.rollback({ threadId, checkpointId: checkpoint.id });
    expect(readFileSync(file, "utf8")).toBe("state after run 1\n");
    const after = await h.thread(threadId);
    expect(after.runs.get(second.runId)?.status).toBe("rolled_back");
    expect(after.runs.get(third.runId)?.status).toBe("rolled_back");

    const before = h.claudeRequests().length;
    const fourth = await h.send(threadId, "message four");
    const run4 = fourth.state.runs.get(fourth.runId)!;
    expect(run4.status).toBe("completed");
    // Rolled back natively (resumeSessionAt): the same provider thread, no handoff needed.
    expect(run4.providerThreadId).toBe(fourth.state.runs.get(first.runId)?.providerThreadId);
    expect(run4.contextHandoffId).toBeNull();
    const request = h.claudeRequests().slice(before).at(-1)!;
    const texts = anthropicUserTexts(request);
    expect(texts).toContain("message one");
    expect(texts).toContain("message four");
    expect(texts).not.toContain("message two");
    expect(texts).not.toContain("message three");
  });

  it("B14: the agent's Bash edits are undone, the person's edit and new file elsewhere survive; force keeps a safety checkpoint a second rollback restores", async () => {
    const h = await harness({ codex: "none" });
    const read = (file: string) => readFileSync(join(h.workspaceRoot, file), "utf8");
    const write = (file: string, text: string) => writeFileSync(join(h.workspaceRoot, file), text);
    write("README.md", "# mine\n");
    h.anthropic.enqueue(
      anthropicBashReply("printf 'one\\n' > agent.txt"),
      anthropicTextReply("wrote agent.txt"),
      anthropicBashReply("printf 'two\\n' > agent.txt && printf 'x\\n' > extra.txt"),
      anthropicTextReply("changed agent.txt, added extra.txt"),
    );
    const threadId = await h.createThread({ provider: "claude", runtimeMode: "full-access" });
    const first = await h.send(threadId, "write agent.txt");
    expect(read("agent.txt")).toBe("one\n");
    const second = await h.send(threadId, "change it");
    expect(second.state.runs.get(second.runId)?.status).toBe("completed");
    expect(read("extra.txt")).toBe("x\n");

    write("README.md", "# mine, edited by hand\n");
    write("notes.txt", "my notes\n");
    write("agent.txt", "the person's version\n");
    const state = await h.thread(threadId);
    const checkpoint = [...state.checkpoints.values()].find((c) => c.runId === first.runId)!;
    await expect(
      h.orchestrator.rollback({ threadId, checkpointId: checkpoint.id }),
    ).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("agent.txt") });
    expect(read("extra.txt")).toBe("x\n");

    const forced = await h.orchestrator.rollback({
      threadId,
      checkpointId: checkpoint.id,
      force: true,
    });
    expect(read("agent.txt")).toBe("one\n");
    expect(existsSync(join(h.workspaceRoot, "extra.txt"))).toBe(false);
    expect(read("README.md")).toBe("# mine, edited by hand\n");
    expect(read("notes.txt")).toBe("my notes\n");
    expect((await h.thread(threadId)).runs.get(second.runId)?.status).toBe("rolled_back");

    await h.orchestrator.rollback({ threadId, checkpointId: forced.safetyCheckpointId! });
    expect(read("agent.txt")).toBe("the person's version\n");
    expect(read("extra.txt")).toBe("x\n");
    expect(read("README.md")).toBe("# mine, edited by hand\n");
  });

  it("B3: replaying a rollback's commandId after a later run leaves the files, the Claude session history and the log as they were", async () => {
    const h = await harness({ codex: "none" });
    const threadId = await fourAnswers(h);
    const file = join(h.workspaceRoot, "f.txt");
    const send = (text: string) => h.send(threadId, text);
    const { first, rollback, applied } = await twoRunsRolledBack(h, threadId, send, {
      file,
      commandId: "cmd_rollback_claude",
    });

    writeFileSync(file, "three\n");
    const third = await h.send(threadId, "message three");
    expect(third.state.runs.get(third.runId)?.status).toBe("completed");
    expect(readFileSync(file, "utf8")).toBe("three\n");
    await expectRollbackReplayTouchesNothing(h, {
      rollback,
      applied,
      file,
      laterRunId: third.runId,
    });

    // The Claude session still holds run 3: a replay that rolled back again would cut it.
    const before = h.claudeRequests().length;
    const fourth = await h.send(threadId, "message four");
    const run4 = fourth.state.runs.get(fourth.runId)!;
    expect(run4.status).toBe("completed");
    expect(run4.providerThreadId).toBe(fourth.state.runs.get(first.runId)?.providerThreadId);
    expect(run4.contextHandoffId).toBeNull();
    const texts = anthropicUserTexts(h.claudeRequests().slice(before).at(-1)!);
    expect(texts).toEqual(expect.arrayContaining(["message one", "message three", "message four"]));
    expect(texts).not.toContain("message two");
  }, 240_000);
});
