import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicTextReply, anthropicUserTexts } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";
import { expectRollbackReplayTouchesNothing, rollbackToRun } from "./support/rollback-replay.ts";

const harness = useClaudeSkeinHarness();

describe("Claude through Skein: a replayed rollback changes nothing", () => {
  it("B3: replaying a rollback's commandId after a later run leaves the files, the Claude session history and the log as they were", async () => {
    const h = await harness({ codex: "none" });
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

    const { rollback, applied } = await rollbackToRun(h, {
      threadId,
      runId: first.runId,
      commandId: "cmd_rollback_claude",
    });
    expect(readFileSync(file, "utf8")).toBe("one\n");

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
