import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ThreadId } from "@skein/domain";
import { writeFile } from "@skein/scripted-provider";
import { describe, expect, it } from "vitest";
import { createGitWorkspace, git, hashTree } from "../../../test/support/git-workspace.ts";
import {
  useHarness,
  eventually,
  type Harness,
  runMessage,
} from "../../../test/support/orchestrator-harness.ts";

/** The person and the agent share the project's folder here (issue 26: `local` threads). */
const IN_PLACE = { threadWorkspace: "local" } as const;

const harness = useHarness();

async function checkpointOf(h: Harness, threadId: ThreadId, runId: string) {
  const state = await h.thread(threadId);
  const checkpoint = [...state.checkpoints.values()].find((c) => c.runId === runId);
  if (!checkpoint) throw new Error(`run ${runId} has no checkpoint`);
  return checkpoint;
}

describe("checkpoints, rollback and isolated forks (issue 6)", () => {
  it("a run's checkpoint lists edited, created and deleted files; the user's index, HEAD and status are untouched", async () => {
    const ws = createGitWorkspace({ "a.txt": "one\ntwo\n", "c.txt": "gone\nsoon\n" });
    const h = await harness({ workspaceRoot: ws, projectSettings: IN_PLACE });
    const before = {
      status: git(ws, "status", "--porcelain"),
      head: git(ws, "rev-parse", "HEAD"),
      index: readFileSync(path.join(ws, ".git/index")).toString("base64"),
    };
    h.codex.enqueue([
      writeFile("a.txt", "one\nTWO\nthree\n"),
      writeFile("b.txt", "new\n"),
      writeFile("c.txt", null),
    ]);
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const { runId, run } = await runMessage(h, threadId, "edit files");
    expect(run.status).toBe("completed");
    const checkpoint = await checkpointOf(h, threadId, runId);
    expect(checkpoint.status).toBe("ready");
    const files = Object.fromEntries(checkpoint.files.map((f) => [f.path, f]));
    expect(files["a.txt"]).toMatchObject({ status: "modified", additions: 2, deletions: 1 });
    expect(files["b.txt"]).toMatchObject({ status: "added", additions: 1, deletions: 0 });
    expect(files["c.txt"]).toMatchObject({ status: "deleted", additions: 0, deletions: 2 });
    expect(git(ws, "rev-parse", "HEAD")).toBe(before.head);
    expect(readFileSync(path.join(ws, ".git/index")).toString("base64")).toBe(before.index);
    // Status shows exactly the agent's edits: the capture staged, committed and branched nothing.
    expect(before.status).toBe("");
    expect(git(ws, "status", "--porcelain")).toBe(" M a.txt\n D c.txt\n?? b.txt\n");
  });

  it("works in a folder that is not a git repository", async () => {
    const ws = mkdtempSync(path.join(tmpdir(), "skein-plain-"));
    const h = await harness({ workspaceRoot: ws, projectSettings: IN_PLACE });
    h.codex.enqueue([writeFile("notes.md", "# hi\n")]);
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const { runId } = await runMessage(h, threadId, "write notes");
    const checkpoint = await checkpointOf(h, threadId, runId);
    expect(checkpoint).toMatchObject({
      status: "ready",
      files: [{ path: "notes.md", status: "added" }],
    });
    expect(existsSync(path.join(ws, ".git"))).toBe(false);
  });

  it("rollback to run 1 of 3 restores files byte for byte, marks runs 2–3 rolled_back, and the provider forgets them", async () => {
    const ws = createGitWorkspace({ "a.txt": "base\n" });
    const h = await harness({ workspaceRoot: ws, projectSettings: IN_PLACE });
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    h.codex.enqueue([writeFile("a.txt", "run one\n")]);
    const first = await runMessage(h, threadId, "run 1");
    const afterRun1 = hashTree(ws);
    h.codex.enqueue([writeFile("a.txt", "run two\n"), writeFile("two.txt", "2\n")]);
    const second = await runMessage(h, threadId, "run 2");
    h.codex.enqueue([writeFile("nested/three.txt", "3\n")]);
    const third = await runMessage(h, threadId, "run 3");
    expect(hashTree(ws)).not.toEqual(afterRun1);

    const checkpoint = await checkpointOf(h, threadId, first.runId);
    await h.orchestrator.rollback({ threadId, checkpointId: checkpoint.id });
    expect(hashTree(ws)).toEqual(afterRun1);
    expect(existsSync(path.join(ws, "two.txt"))).toBe(false);
    const state = await h.thread(threadId);
    expect(state.runs.get(second.runId)?.status).toBe("rolled_back");
    expect(state.runs.get(third.runId)?.status).toBe("rolled_back");
    expect([...state.turnItems.values()].some((e) => e.item.type === "checkpoint")).toBe(true);

    await runMessage(h, threadId, "run 4");
    const lastTurn = h.codex.calls.filter((c) => c.op === "startTurn").at(-1)!;
    const nativeRef = (lastTurn.args as { nativeThreadRef: string }).nativeThreadRef;
    const history = await h.codex.sessions.at(-1)!.readHistory(nativeRef);
    expect(history.map((t) => t.userText)).toEqual(["run 1", "run 4"]);
  });

  it("a thread's first run cut short by a restart keeps the folder as it was read before it: the next checkpoint lists the agent's files, not the person's", async () => {
    const ws = createGitWorkspace({ "a.txt": "base\n" });
    writeFileSync(path.join(ws, "mine.txt"), "the person's, uncommitted\n");
    const h = await harness({ workspaceRoot: ws, projectSettings: IN_PLACE });
    const { threadId } = await h.orchestrator.createThread({
      projectId: h.projectId,
      runtimeMode: "approval-required",
    });
    // The first turn writes, then waits on an approval nobody answers: the process "dies" there,
    // with the baseline's reading staged and its commit not yet written (issue 34).
    h.codex.enqueue([
      writeFile("a.txt", "run one\n"),
      { type: "command", command: "make", output: "", approval: true },
    ]);
    await h.orchestrator.sendMessage({ threadId, text: "first" });
    await eventually(async () => {
      const pending = [...(await h.thread(threadId)).requests.values()];
      expect(pending.map((r) => r.status)).toEqual(["pending"]);
    });
    const next = await h.restart();
    await next.recover();
    h.codex.enqueue([writeFile("b.txt", "run two\n")]);
    const { runId } = await runMessage(h, threadId, "second");
    const checkpoint = await checkpointOf(h, threadId, runId);
    expect(checkpoint.files.map((f) => [f.path, f.status])).toEqual([
      ["a.txt", "modified"],
      ["b.txt", "added"],
    ]);
  });

  it("rollback while a run is active is refused clearly and changes nothing", async () => {
    const ws = createGitWorkspace({ "a.txt": "base\n" });
    const h = await harness({ workspaceRoot: ws, projectSettings: IN_PLACE });
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    h.codex.enqueue([writeFile("a.txt", "run one\n")]);
    const first = await runMessage(h, threadId, "run 1");
    const checkpoint = await checkpointOf(h, threadId, first.runId);
    h.codex.enqueue([writeFile("a.txt", "run two\n"), { type: "wait", ms: 10_000 }]);
    const { runId } = await h.orchestrator.sendMessage({ threadId, text: "slow" });
    await eventually(async () =>
      expect(readFileSync(path.join(ws, "a.txt"), "utf8")).toBe("run two\n"),
    );
    const head = await h.store.headSequence();
    await expect(
      h.orchestrator.rollback({ threadId, checkpointId: checkpoint.id }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/active|running/),
    });
    // The running run may still append its own events meanwhile; the refused rollback none.
    const since = (await h.store.readAll(head)).map((event) => event.type);
    expect(since.filter((type) => /Roll|Restor/.test(type))).toEqual([]);
    expect(readFileSync(path.join(ws, "a.txt"), "utf8")).toBe("run two\n");
    await h.orchestrator.interrupt({ threadId });
    await h.orchestrator.waitForRun(runId);
  });

  it("a checkpoint ref deleted behind Skein's back is marked missing and rollback to it is refused", async () => {
    const ws = createGitWorkspace({ "a.txt": "base\n" });
    const h = await harness({ workspaceRoot: ws, projectSettings: IN_PLACE });
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    h.codex.enqueue([writeFile("a.txt", "one\n")]);
    const first = await runMessage(h, threadId, "run 1");
    h.codex.enqueue([writeFile("a.txt", "two\n")]);
    await runMessage(h, threadId, "run 2");
    const checkpoint = await checkpointOf(h, threadId, first.runId);
    git(ws, "update-ref", "-d", checkpoint.ref);
    await expect(
      h.orchestrator.rollback({ threadId, checkpointId: checkpoint.id }),
    ).rejects.toMatchObject({
      code: "precondition_failed",
      message: expect.stringContaining("deleted"),
    });
    expect((await checkpointOf(h, threadId, first.runId)).status).toBe("missing");
    expect(readFileSync(path.join(ws, "a.txt"), "utf8")).toBe("two\n");
  });

  it("a fork with an isolated worktree edits its own copy; the source workspace is unchanged", async () => {
    const ws = createGitWorkspace({ "a.txt": "base\n" });
    const h = await harness({ workspaceRoot: ws, projectSettings: IN_PLACE });
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    h.codex.enqueue([writeFile("a.txt", "source run\n")]);
    await runMessage(h, threadId, "run 1");
    const sourceFiles = hashTree(ws);
    const fork = await h.orchestrator.forkThread({ threadId });
    const forkState = await h.thread(fork.threadId);
    const worktree = forkState.thread?.worktreePath;
    expect(worktree).toBeTruthy();
    expect(readFileSync(path.join(worktree!, "a.txt"), "utf8")).toBe("source run\n");
    h.codex.enqueue([writeFile("a.txt", "fork edit\n"), writeFile("fork-only.txt", "f\n")]);
    await runMessage(h, fork.threadId, "edit on the fork", { provider: "codex" });
    expect(readFileSync(path.join(worktree!, "a.txt"), "utf8")).toBe("fork edit\n");
    expect(hashTree(ws)).toEqual(sourceFiles);
  });

  it("a fork from a checkpoint on another provider gets a checkpoint_summary handoff naming it and its files", async () => {
    const ws = mkdtempSync(path.join(tmpdir(), "skein-plain-"));
    const h = await harness({ workspaceRoot: ws, projectSettings: IN_PLACE });
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    h.codex.enqueue([
      writeFile("src/app.ts", "export const x = 1;\n"),
      writeFile("README.md", "# app\n"),
    ]);
    const first = await runMessage(h, threadId, "scaffold the app");
    const checkpoint = await checkpointOf(h, threadId, first.runId);
    const fork = await h.orchestrator.forkThread({
      threadId,
      sourcePoint: { type: "checkpoint", checkpointId: checkpoint.id },
    });
    const { run } = await runMessage(h, fork.threadId, "continue from the checkpoint", {
      provider: "claude",
    });
    const handoff = (await h.thread(fork.threadId)).handoffs.get(run.contextHandoffId!)!;
    expect(handoff).toMatchObject({ strategy: "checkpoint_summary", kind: "checkpoint_context" });
    // The text names the checkpoint by its run, not by an internal id (issue 25: no ids in handoffs).
    expect(handoff.summaryText).toContain("checkpoint: after run 1");
    expect(handoff.summaryText).toContain("src/app.ts");
    expect(handoff.summaryText).toContain("README.md");
  });
});
