import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ThreadId } from "@skein/domain";
import { afterEach, describe, expect, it } from "vitest";
import { createGitWorkspace, git } from "../../../test/support/git-workspace.ts";
import {
  createHarness,
  eventually,
  type Harness,
  runMessage,
} from "../../../test/support/orchestrator-harness.ts";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const threadOf = async (threadId: ThreadId) => (await h!.thread(threadId)).thread!;

describe("issue 26 / B14: a worktree per thread in a git project", () => {
  it("B14: a new thread gets its own worktree at HEAD on its own branch, with .env copied and never over a file already there", async () => {
    const ws = createGitWorkspace({ "app.ts": "v1\n", ".env.shared": "committed\n" });
    writeFileSync(path.join(ws, ".env"), "SECRET=1\n");
    writeFileSync(path.join(ws, ".env.shared"), "person's uncommitted edit\n");
    writeFileSync(path.join(ws, "app.ts"), "person's work in progress\n");
    h = await createHarness({ workspaceRoot: ws });

    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const thread = await threadOf(threadId);
    expect(thread.worktreePath).toBe(path.join(h.dataDir, "worktrees", threadId));
    expect(thread.branch).toBe(`skein/${threadId}`);
    const wt = thread.worktreePath!;
    expect(git(wt, "rev-parse", "HEAD")).toBe(git(ws, "rev-parse", "HEAD"));
    expect(readFileSync(path.join(wt, "app.ts"), "utf8")).toBe("v1\n");
    expect(readFileSync(path.join(wt, ".env"), "utf8")).toBe("SECRET=1\n");
    // The checkout's own file stays: copying never overwrites.
    expect(readFileSync(path.join(wt, ".env.shared"), "utf8")).toBe("committed\n");
    expect(thread.workspaceSetup).toMatchObject({ status: "succeeded", copied: [".env"] });

    // The agent's edits land in the worktree; the person's folder is untouched.
    h.codex.enqueue([{ type: "file_change", path: "app.ts", diff: "", content: "agent\n" }]);
    const { run } = await runMessage(h, threadId, "edit");
    expect(run.status).toBe("completed");
    expect(readFileSync(path.join(wt, "app.ts"), "utf8")).toBe("agent\n");
    expect(readFileSync(path.join(ws, "app.ts"), "utf8")).toBe("person's work in progress\n");
  });

  it("B3: thread.create replayed under one commandId makes one thread and one worktree", async () => {
    const ws = createGitWorkspace({ "a.txt": "a\n" });
    h = await createHarness({ workspaceRoot: ws });
    const input = { projectId: h.projectId, commandId: "cmd_create_wt_1" };
    const [first, second] = await Promise.all([
      h.orchestrator.createThread(input),
      h.orchestrator.createThread(input),
    ]);
    const third = await h.orchestrator.createThread(input);
    expect(second.threadId).toBe(first.threadId);
    expect(third).toEqual(first);
    const skeinWorktrees = git(ws, "worktree", "list", "--porcelain")
      .split("\n")
      .filter((line) => line.startsWith("branch refs/heads/skein/"));
    expect(skeinWorktrees).toEqual([`branch refs/heads/skein/${first.threadId}`]);
    await expect(
      h.orchestrator.createThread({ ...input, workspace: "local" }),
    ).rejects.toMatchObject({ code: "conflict" });
  });

  it("B14: `local` (per thread or as the project's setting) works in the project's folder", async () => {
    const ws = createGitWorkspace({ "a.txt": "a\n" });
    h = await createHarness({ workspaceRoot: ws });
    const { threadId } = await h.orchestrator.createThread({
      projectId: h.projectId,
      workspace: "local",
    });
    expect((await threadOf(threadId)).worktreePath).toBeNull();

    await h.orchestrator.updateProjectSettings({
      projectId: h.projectId,
      settings: { threadWorkspace: "local" },
    });
    const byProject = await h.orchestrator.createThread({ projectId: h.projectId });
    expect((await threadOf(byProject.threadId)).worktreePath).toBeNull();
    const asked = await h.orchestrator.createThread({
      projectId: h.projectId,
      workspace: "worktree",
    });
    expect((await threadOf(asked.threadId)).worktreePath).not.toBeNull();
  });

  it("a folder that is not a git repository works in place; asking it for a worktree is refused in words", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "skein-plain-"));
    h = await createHarness({ workspaceRoot: folder });
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    expect((await threadOf(threadId)).worktreePath).toBeNull();
    await expect(
      h.orchestrator.createThread({ projectId: h.projectId, workspace: "worktree" }),
    ).rejects.toMatchObject({
      code: "precondition_failed",
      message: expect.stringContaining("is not one"),
    });
    expect(existsSync(path.join(h.dataDir, "worktrees"))).toBe(false);
  });

  it("PORTs: distinct per open thread from the project's range, in the runtime's environment, free again once archived", async () => {
    const ws = createGitWorkspace({ "a.txt": "a\n" });
    h = await createHarness({
      workspaceRoot: ws,
      projectSettings: { portRange: { from: 4700, to: 4701 } },
    });
    const created = await Promise.all(
      [1, 2].map(() => h!.orchestrator.createThread({ projectId: h!.projectId })),
    );
    const ports = await Promise.all(created.map(async (c) => (await threadOf(c.threadId)).port));
    expect([...ports].sort()).toEqual([4700, 4701]);
    await expect(h.orchestrator.createThread({ projectId: h.projectId })).rejects.toMatchObject({
      code: "precondition_failed",
      message: expect.stringContaining("every port from 4700 to 4701"),
    });

    const [a, b] = [created[0]!, created[1]!];
    await Promise.all([runMessage(h, a.threadId, "hi"), runMessage(h, b.threadId, "hi")]);
    const envs = h.codex.calls
      .filter((call) => call.op === "openSession")
      .map((call) => (call.args as { env?: { PORT?: string } }).env?.PORT)
      .sort();
    expect(envs).toEqual(["4700", "4701"]);

    await h.orchestrator.archive({ threadId: a.threadId });
    const next = await h.orchestrator.createThread({ projectId: h.projectId });
    const portOfA = (await threadOf(a.threadId)).port;
    expect((await threadOf(next.threadId)).port).toBe(portOfA);

    // Unarchived while its port is taken: it gets a free one, never a shared one.
    await h.orchestrator.archive({ threadId: b.threadId });
    await h.orchestrator.unarchive({ threadId: a.threadId });
    const ports2 = await Promise.all([a, next].map(async (t) => (await threadOf(t.threadId)).port));
    expect(new Set(ports2).size).toBe(2);
    expect(ports2[1]).toBe(portOfA);
  });

  it("setup script: runs once per worktree with PORT, its output shown on the thread; runs wait for it", async () => {
    const ws = createGitWorkspace({ "a.txt": "a\n" });
    h = await createHarness({
      workspaceRoot: ws,
      projectSettings: {
        setupScript: 'echo "setting up on $PORT"; echo ran >> setup-count.txt',
      },
    });
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const { run } = await runMessage(h, threadId, "go");
    expect(run.status).toBe("completed");
    const thread = await threadOf(threadId);
    expect(thread.workspaceSetup).toMatchObject({
      status: "succeeded",
      exitCode: 0,
      error: null,
      output: `setting up on ${thread.port}\n`,
    });
    await runMessage(h, threadId, "again");
    expect(readFileSync(path.join(thread.worktreePath!, "setup-count.txt"), "utf8")).toBe("ran\n");
  });

  it("setup script failure: said in words on the thread, and the thread still works", async () => {
    const ws = createGitWorkspace({ "a.txt": "a\n" });
    h = await createHarness({
      workspaceRoot: ws,
      projectSettings: { setupScript: "echo 'missing tool' >&2; exit 3" },
    });
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const { run } = await runMessage(h, threadId, "go");
    expect(run.status).toBe("completed");
    const setup = (await threadOf(threadId)).workspaceSetup!;
    expect(setup).toMatchObject({ status: "failed", exitCode: 3, output: "missing tool\n" });
    expect(setup.error).toMatch(/exited with code 3; the thread works in its worktree without it/);
  });

  it("setup script past its time limit is stopped and said so", async () => {
    const ws = createGitWorkspace({ "a.txt": "a\n" });
    h = await createHarness({
      workspaceRoot: ws,
      setupTimeoutMs: 300,
      projectSettings: { setupScript: "echo started; sleep 30" },
    });
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const setup = await eventually(async () => {
      const s = (await threadOf(threadId)).workspaceSetup!;
      expect(s.status).toBe("failed");
      return s;
    });
    expect(setup.error).toMatch(/was stopped after 1 s, its time limit/);
    expect(setup.output).toBe("started\n");
  });
});
