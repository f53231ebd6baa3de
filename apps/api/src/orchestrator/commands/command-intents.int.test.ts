import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ThreadId } from "@skein/domain";
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

async function eventsOf(type: string) {
  return (await h.store.readAll(0)).filter((event) => event.type === type);
}

async function twoRuns(workspaceRoot?: string) {
  h = await createHarness(workspaceRoot ? { workspaceRoot } : {});
  const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
  h.codex.enqueue([writeFile("f.txt", "one\n")], [writeFile("f.txt", "two\n")]);
  const first = await runMessage(h, threadId, "run 1");
  const second = await runMessage(h, threadId, "run 2");
  const state = await h.thread(threadId);
  const checkpoint = [...state.checkpoints.values()].find((c) => c.runId === first.runId)!;
  return { threadId, first, second, checkpoint };
}

const nativeRollbacks = () => h.codex.calls.filter((c) => c.op === "rollbackThread").length;

describe("B3: command intents finish what a crash interrupted, once", () => {
  it("B3: a rollback whose append never happened after its effects is finished on restart; a replay then changes nothing", async () => {
    const { threadId, second, checkpoint } = await twoRuns();
    const file = path.join(h.workspaceRoot, "f.txt");
    failNextAppendOf(h, "ThreadRolledBack");
    const rollback = { threadId, checkpointId: checkpoint.id, commandId: "cmd_rb_crash" };
    await expect(h.orchestrator.rollback(rollback)).rejects.toThrow(/simulated crash/);
    expect(readFileSync(file, "utf8")).toBe("one\n");
    expect(await eventsOf("ThreadRolledBack")).toHaveLength(0);
    expect(await h.store.findIntent("cmd_rb_crash")).toMatchObject({
      procedure: "thread.rollback",
    });
    expect(nativeRollbacks()).toBe(1);

    await h.orchestrator.shutdown();
    const restarted = await h.restart();
    await restarted.recover();
    const rolledBack = await eventsOf("ThreadRolledBack");
    expect(rolledBack.map((event) => event.commandId)).toEqual(["cmd_rb_crash"]);
    expect(await h.store.findIntent("cmd_rb_crash")).toBeNull();
    expect((await h.thread(threadId)).runs.get(second.runId)?.status).toBe("rolled_back");
    const nativeRef = (await h.thread(threadId)).providerThreads.values().next().value!
      .nativeThreadRef!;
    const history = await h.codex.sessions.at(-1)!.readHistory(nativeRef);
    expect(history.map((turn) => turn.userText)).toEqual(["run 1"]);

    writeFileSync(file, "edited after the rollback\n");
    const head = await h.store.headSequence();
    const calls = nativeRollbacks();
    expect(await restarted.rollback(rollback)).toMatchObject({
      sequence: rolledBack[0]!.sequence,
      safetyCheckpointId: null,
    });
    expect(readFileSync(file, "utf8")).toBe("edited after the rollback\n");
    expect(nativeRollbacks()).toBe(calls);
    expect(await h.store.headSequence()).toBe(head);
  });

  it("B3: an isolated fork that failed after its worktree was made is finished by the retry: one fork, one worktree", async () => {
    const ws = createGitWorkspace({ "f.txt": "base\n" });
    const { threadId, first } = await twoRuns(ws);
    failNextAppendOf(h, "ThreadSettingsUpdated");
    const fork = {
      threadId: threadId as ThreadId,
      sourcePoint: { type: "run" as const, runId: first.runId },
      isolatedWorkspace: true,
      commandId: "cmd_fork_crash",
    };
    const before = (await eventsOf("ThreadForked")).length;
    await expect(h.orchestrator.forkThread(fork)).rejects.toThrow(/simulated crash/);
    const intent = await h.store.findIntent("cmd_fork_crash");
    expect(intent).not.toBeNull();
    const planned = (intent!.data as { decision: { threadId: ThreadId } }).decision.threadId;
    expect(existsSync(path.join(h.dataDir, "worktrees", planned))).toBe(true);

    const answer = await h.orchestrator.forkThread(fork);
    expect(answer.threadId).toBe(planned);
    expect(await eventsOf("ThreadForked")).toHaveLength(before + 1);
    const forked = await h.thread(planned);
    expect(forked.thread?.worktreePath).toBeTruthy();
    expect(readFileSync(path.join(forked.thread!.worktreePath!, "f.txt"), "utf8")).toBe("one\n");
    expect(await h.store.findIntent("cmd_fork_crash")).toBeNull();
    expect(await h.orchestrator.forkThread(fork)).toEqual(answer);
    expect(await eventsOf("ThreadForked")).toHaveLength(before + 1);
  });
});
