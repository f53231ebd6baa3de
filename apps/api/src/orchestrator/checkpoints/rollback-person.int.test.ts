import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ThreadId } from "@skein/domain";
import { writeFile } from "@skein/scripted-provider";
import { describe, expect, it } from "vitest";
import { createGitWorkspace, hashTree } from "../../../test/support/git-workspace.ts";
import {
  useHarness,
  type Harness,
  runMessage,
} from "../../../test/support/orchestrator-harness.ts";

/** The person and the agent share the project's folder here (issue 26: `local` threads). */
const IN_PLACE = { threadWorkspace: "local" } as const;

const harness = useHarness();

/**
 * The walk-through: three agent runs; then the person edits README.md (no run touched it),
 * creates notes.txt, and the thread is rolled back to the checkpoint after run 2.
 */
async function threeRuns() {
  const ws = createGitWorkspace({ "README.md": "# project\n", "a.txt": "base\n" });
  const h = await harness({ workspaceRoot: ws, projectSettings: IN_PLACE });
  const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
  h.codex.enqueue([writeFile("a.txt", "run one\n")]);
  const first = await runMessage(h, threadId, "run 1");
  h.codex.enqueue([writeFile("a.txt", "run two\n"), writeFile("two.txt", "2\n")]);
  const second = await runMessage(h, threadId, "run 2");
  h.codex.enqueue([
    writeFile("a.txt", "run three\n"),
    writeFile("three.txt", "3\n"),
    writeFile("two.txt", null),
  ]);
  const third = await runMessage(h, threadId, "run 3");
  const read = (file: string) => readFileSync(path.join(ws, file), "utf8");
  const write = (file: string, text: string) => writeFileSync(path.join(ws, file), text);
  return { h, ws, threadId, first, second, third, read, write };
}

async function checkpointOf(h: Harness, threadId: ThreadId, runId: string) {
  const state = await h.thread(threadId);
  return [...state.checkpoints.values()].find((c) => c.runId === runId)!;
}

describe("B14: rollback undoes the agent, never the person (issue 26)", () => {
  it("B14: the person's edit and new file survive; the preview lists exactly what each agent path becomes", async () => {
    const t = await threeRuns();
    const { h } = t;
    t.write("README.md", "# project\nmy own edit\n");
    t.write("notes.txt", "my notes\n");
    const checkpoint = await checkpointOf(h, t.threadId, t.second.runId);
    const ask = { threadId: t.threadId, checkpointId: checkpoint.id };

    const preview = await h.orchestrator.rollbackPreview(ask);
    expect(preview.conflicts).toEqual([]);
    expect(preview.rolledBackRunOrdinals).toEqual([3]);
    const byPath = Object.fromEntries(preview.files.map((f) => [f.path, f]));
    expect(Object.keys(byPath).sort()).toEqual(["a.txt", "three.txt", "two.txt"]);
    expect(byPath["a.txt"]).toMatchObject({ status: "modified", conflict: false });
    expect(byPath["a.txt"]?.patch).toMatch(/-run three\n\+run two/);
    expect(byPath["three.txt"]).toMatchObject({ status: "deleted" });
    expect(byPath["two.txt"]).toMatchObject({ status: "added" });
    expect(byPath["two.txt"]?.patch).toContain("+2");

    const result = await h.orchestrator.rollback(ask);
    expect(result.safetyCheckpointId).toBeNull();
    expect(result.files.map((f) => f.path).sort()).toEqual(["a.txt", "three.txt", "two.txt"]);
    expect(t.read("a.txt")).toBe("run two\n");
    expect(t.read("two.txt")).toBe("2\n");
    expect(existsSync(path.join(t.ws, "three.txt"))).toBe(false);
    expect(t.read("README.md")).toBe("# project\nmy own edit\n");
    expect(t.read("notes.txt")).toBe("my notes\n");
    const state = await h.thread(t.threadId);
    expect(state.runs.get(t.third.runId)?.status).toBe("rolled_back");
  });

  it("B14: a path the person changed after the agent is refused as CONFLICT naming it, and nothing changes", async () => {
    const t = await threeRuns();
    const { h } = t;
    t.write("a.txt", "the person rewrote it\n");
    t.write("notes.txt", "mine\n");
    const checkpoint = await checkpointOf(h, t.threadId, t.first.runId);
    const before = hashTree(t.ws);
    const head = await h.store.headSequence();
    const preview = await h.orchestrator.rollbackPreview({
      threadId: t.threadId,
      checkpointId: checkpoint.id,
    });
    expect(preview.conflicts).toEqual(["a.txt"]);
    expect(preview.files.find((f) => f.path === "a.txt")).toMatchObject({ conflict: true });

    await expect(
      h.orchestrator.rollback({ threadId: t.threadId, checkpointId: checkpoint.id }),
    ).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("a.txt") });
    expect(hashTree(t.ws)).toEqual(before);
    expect(await h.store.headSequence()).toBe(head);
    const state = await h.thread(t.threadId);
    expect(state.runs.get(t.second.runId)?.status).toBe("completed");
    expect(state.runs.get(t.third.runId)?.status).toBe("completed");
  });

  it("B14: force keeps a safety checkpoint first; a second rollback to it puts the person's version back", async () => {
    const t = await threeRuns();
    const { h } = t;
    t.write("a.txt", "the person rewrote it\n");
    t.write("notes.txt", "mine\n");
    const beforeForce = hashTree(t.ws);
    const checkpoint = await checkpointOf(h, t.threadId, t.first.runId);

    const forced = await h.orchestrator.rollback({
      threadId: t.threadId,
      checkpointId: checkpoint.id,
      force: true,
    });
    expect(forced.safetyCheckpointId).toBeTruthy();
    expect(t.read("a.txt")).toBe("run one\n");
    expect(t.read("notes.txt")).toBe("mine\n");
    expect(existsSync(path.join(t.ws, "three.txt"))).toBe(false);
    const safety = (await h.thread(t.threadId)).checkpoints.get(forced.safetyCheckpointId!);
    expect(safety).toMatchObject({ status: "ready" });
    expect(safety?.files.map((f) => f.path).sort()).toEqual(["a.txt", "three.txt"]);

    const back = await h.orchestrator.rollback({
      threadId: t.threadId,
      checkpointId: forced.safetyCheckpointId!,
    });
    expect(back.safetyCheckpointId).toBeNull();
    expect(hashTree(t.ws)).toEqual(beforeForce);
    // Restoring files does not bring the rolled-back runs back.
    const state = await h.thread(t.threadId);
    expect(state.runs.get(t.second.runId)?.status).toBe("rolled_back");
  });

  it("B14: scope code keeps the runs; scope conversation keeps the files", async () => {
    const t = await threeRuns();
    const { h } = t;
    const checkpoint = await checkpointOf(h, t.threadId, t.second.runId);
    const ask = { threadId: t.threadId, checkpointId: checkpoint.id };

    const conversation = await h.orchestrator.rollbackPreview({ ...ask, scope: "conversation" });
    expect(conversation).toMatchObject({ files: [], conflicts: [], rolledBackRunOrdinals: [3] });
    const code = await h.orchestrator.rollbackPreview({ ...ask, scope: "code" });
    expect(code.rolledBackRunOrdinals).toEqual([]);

    await h.orchestrator.rollback({ ...ask, scope: "code" });
    expect(t.read("a.txt")).toBe("run two\n");
    let state = await h.thread(t.threadId);
    expect(state.runs.get(t.third.runId)?.status).toBe("completed");

    t.write("a.txt", "after the code rollback\n");
    await h.orchestrator.rollback({ ...ask, scope: "conversation" });
    expect(t.read("a.txt")).toBe("after the code rollback\n");
    state = await h.thread(t.threadId);
    expect(state.runs.get(t.third.runId)?.status).toBe("rolled_back");
  });

  it("B3: the same command id twice answers once: the second call moves no file", async () => {
    const t = await threeRuns();
    const { h } = t;
    const checkpoint = await checkpointOf(h, t.threadId, t.first.runId);
    const ask = { threadId: t.threadId, checkpointId: checkpoint.id, commandId: "cmd_rb_once" };
    const first = await h.orchestrator.rollback(ask);
    t.write("a.txt", "edited after the rollback\n");
    const again = await h.orchestrator.rollback(ask);
    expect(again).toEqual(first);
    expect(t.read("a.txt")).toBe("edited after the rollback\n");
    await expect(h.orchestrator.rollback({ ...ask, force: true })).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("different payload"),
    });
  });
});
