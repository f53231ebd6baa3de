import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicTextReply, anthropicUserTexts } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ClaudeSkeinHarness,
  createClaudeSkeinHarness,
} from "./support/claude-skein-harness.ts";

let h: ClaudeSkeinHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("Claude through Skein: a replayed rollback changes nothing", () => {
  it("B3: replaying a rollback's commandId after a later run leaves the files, the Claude session history and the log as they were", async () => {
    h = await createClaudeSkeinHarness({ codex: "none" });
    h.anthropic.enqueue(
      anthropicTextReply("answer one"),
      anthropicTextReply("answer two"),
      anthropicTextReply("answer three"),
      anthropicTextReply("answer four"),
    );
    const threadId = await h.createThread({ provider: "claude" });
    const file = join(h.workspaceRoot, "f.txt");
    writeFileSync(file, "one\n");
    const first = await h.send(threadId, "message one");
    writeFileSync(file, "two\n");
    await h.send(threadId, "message two");

    const state = await h.thread(threadId);
    const checkpoint = [...state.checkpoints.values()].find((c) => c.runId === first.runId)!;
    const rollback = { threadId, checkpointId: checkpoint.id, commandId: "cmd_rollback_claude" };
    const applied = await h.orchestrator.rollback(rollback);
    expect(readFileSync(file, "utf8")).toBe("one\n");

    writeFileSync(file, "three\n");
    const third = await h.send(threadId, "message three");
    expect(third.state.runs.get(third.runId)?.status).toBe("completed");
    const head = await h.store.headSequence();

    const replayed = await h.orchestrator.rollback(rollback);
    expect(replayed).toEqual(applied);
    expect(readFileSync(file, "utf8")).toBe("three\n");
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
