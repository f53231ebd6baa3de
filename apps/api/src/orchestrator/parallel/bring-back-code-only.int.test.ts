import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { writeFile } from "@skein/scripted-provider";
import { afterEach, describe, expect, it } from "vitest";
import { createGitWorkspace } from "../../../test/support/git-workspace.ts";
import {
  createHarness,
  failNextAppendOf,
  type Harness,
  runMessage,
} from "../../../test/support/orchestrator-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const eventsOf = async (type: string) =>
  (await h.store.readAll(0)).filter((event) => event.type === type);

/**
 * A local thread and an isolated fork that changed shared.txt; bringing the fork's code back
 * under `commandId` crashes after the files were written, before the log recorded it.
 */
async function crashedBringBack(files: Record<string, string>, commandId: string) {
  const ws = createGitWorkspace(files);
  h = await createHarness({ workspaceRoot: ws });
  const { threadId } = await h.orchestrator.createThread({
    projectId: h.projectId,
    workspace: "local",
  });
  await runMessage(h, threadId, "get ready");
  const fork = await h.orchestrator.forkThread({ threadId, isolatedWorkspace: true });
  h.codex.enqueue([writeFile("shared.txt", "fork\n")]);
  await runMessage(h, fork.threadId, "change it");

  failNextAppendOf(h, "CodeBroughtBack");
  const input = { threadId, forkThreadId: fork.threadId, commandId };
  await expect(h.orchestrator.bringBackCode(input)).rejects.toThrow(/simulated crash/);
  return { ws, threadId, input };
}

describe("issue 26 / B3: a code-only bring-back interrupted by a crash", () => {
  it("B3: files written but never recorded are recorded once by the restart; a replay of the command id changes nothing", async () => {
    const { ws, threadId, input } = await crashedBringBack(
      { "shared.txt": "one\n" },
      "cmd_code_crash",
    );
    const file = path.join(ws, "shared.txt");
    // The files went first; the log holds neither the bring-back nor its safety checkpoint yet.
    expect(readFileSync(file, "utf8")).toBe("fork\n");
    expect(await eventsOf("CodeBroughtBack")).toHaveLength(0);
    const intent = await h.store.findIntent("cmd_code_crash");
    expect(intent).toMatchObject({ procedure: "thread.bringBackCode" });
    const planned = (intent!.data as { decision: { safetyCheckpointId: string } }).decision;

    await h.orchestrator.shutdown();
    const restarted = await h.restart();
    await restarted.recover();
    const recorded = await eventsOf("CodeBroughtBack");
    expect(recorded.map((event) => event.commandId)).toEqual(["cmd_code_crash"]);
    expect(await h.store.findIntent("cmd_code_crash")).toBeNull();
    const state = await h.thread(threadId);
    expect(state.checkpoints.get(planned.safetyCheckpointId as never)?.status).toBe("ready");
    expect(readFileSync(file, "utf8")).toBe("fork\n");

    const head = await h.store.headSequence();
    const again = await restarted.bringBackCode(input);
    expect(again).toMatchObject({
      sequence: recorded[0]!.sequence,
      undoCheckpointId: planned.safetyCheckpointId,
      files: [expect.objectContaining({ path: "shared.txt", status: "modified" })],
    });
    expect(await h.store.headSequence()).toBe(head);
  });

  it("B14: finishing it after a restart writes only the fork's files: what the person did meanwhile stays", async () => {
    const { ws } = await crashedBringBack(
      { "shared.txt": "one\n", "README.md": "# app\n" },
      "cmd_code_person",
    );
    // Before the restart, the person edits a file the fork never touched and adds one.
    writeFileSync(path.join(ws, "README.md"), "# app, edited by hand\n");
    writeFileSync(path.join(ws, "notes.txt"), "mine\n");

    await h.orchestrator.shutdown();
    const restarted = await h.restart();
    await restarted.recover();
    expect((await eventsOf("CodeBroughtBack")).map((event) => event.commandId)).toEqual([
      "cmd_code_person",
    ]);
    expect(readFileSync(path.join(ws, "shared.txt"), "utf8")).toBe("fork\n");
    expect(readFileSync(path.join(ws, "README.md"), "utf8")).toBe("# app, edited by hand\n");
    expect(readFileSync(path.join(ws, "notes.txt"), "utf8")).toBe("mine\n");
  });
});
